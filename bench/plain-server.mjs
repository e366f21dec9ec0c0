// The reference for the HTTP layer: plain node:http answering every request
// with a fixed JSON body (read from FILE), keep-alive, nothing else.
// Prints its URL on one line. Usage: node bench/plain-server.mjs FILE
import fs from 'node:fs';
import http from 'node:http';

const body = fs.readFileSync(process.argv[2]);
const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

// A narrower probe than bench/run.mjs: requests a second through the HTTP layer (auth, routing,
// validation, a small read) against a served organisation, in-process, with
// a fixed number of connections kept alive. Prints the median of runs.
// Usage: node bench/http.mjs [--seconds 5] [--connections 10] [--runs 3]
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const seconds = Number(arg('seconds', '5'));
const connections = Number(arg('connections', '10'));
const runs = Number(arg('runs', '3'));

const { openStore } = await import(path.join(root, 'dist/store/open.js'));
const { createOrganisation } = await import(path.join(root, 'dist/engine/organisation/provision.js'));
const { startServer } = await import(path.join(root, 'dist/http/server.js'));
const { operations } = await import(path.join(root, 'dist/engine/registry.js'));
const { systemClock } = await import(path.join(root, 'dist/engine/clock.js'));

const store = await openStore(fs.mkdtempSync(path.join(os.tmpdir(), 'acct-http-bench-')));
const org = await createOrganisation(store, systemClock, { name: 'Bench Ltd', businessType: 'limited_company', vatScheme: 'standard' });
const key = org.apiKey;
// --no-log: a request log that keeps nothing, to see what logging costs.
const requestLog = process.argv.includes('--no-log') ? { add() {}, async close() {} } : undefined;
const server = await startServer({ store, clock: systemClock, operations, host: '127.0.0.1', port: 0, ...(requestLog ? { requestLog } : {}) });
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

async function run(pathname) {
  const until = Date.now() + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        await get(server.url + pathname);
        count++;
      }
    }),
  );
  return count / seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const pathname of ['/v1/organisation', '/v1/accounts?flat=true']) {
  const rates = [];
  for (let i = 0; i < runs; i++) rates.push(await run(pathname));
  console.log(`GET ${pathname.padEnd(24)} ${median(rates).toFixed(0).padStart(6)} requests/s (median of ${runs} × ${seconds} s, ${connections} connections)`);
}
await server.close();
agent.destroy();
await store.close();

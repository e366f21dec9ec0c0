/** `acct serve` as a real process: its URL line, shared files with the CLI, clean shutdown on SIGTERM and SIGINT. */
import http from 'node:http';
import { once } from 'node:events';
import t from 'tap';
import { acctJson, books, init, waitUntilRefused } from './support.js';
import { request, runCli, runCliInProcess, startAcct } from '../helpers/index.js';

const serveArgs = (dir: string) => ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0'];

t.test('serve prints one line with the URL once it accepts connections, and exits 0 on SIGTERM', async (t) => {
  const dir = t.testdir();
  const { organisationId, apiKey } = await init(t, dir);
  const server = await startAcct(t, serveArgs(dir));
  t.match(server.url, /^http:\/\/127\.0\.0\.1:[1-9]\d*$/, 'an ephemeral port was chosen');
  // No retry: the line is printed only once connections are accepted.
  const res = await request(server.url, 'GET', '/v1/organisation', { key: apiKey });
  t.equal(res.status, 200);
  t.equal(res.body.success, true);
  t.equal(res.body.data.id, organisationId);
  t.equal(res.body.data.name, 'Acme Widgets Ltd');

  server.child.kill('SIGTERM');
  t.same(await server.exited, { code: 0, signal: null }, 'exit status 0');
  t.equal(server.stdout(), `acct listening on ${server.url} (data ${dir})\n`, 'exactly one line on standard output');
  t.equal(server.stderr(), '');
  await waitUntilRefused(server.url);
});

t.test('serve exits 0 on SIGINT', async (t) => {
  const { dir, apiKey } = await books(t);
  const server = await startAcct(t, serveArgs(dir));
  t.equal((await request(server.url, 'GET', '/v1/organisation', { key: apiKey })).status, 200);
  server.child.kill('SIGINT');
  t.same(await server.exited, { code: 0, signal: null });
  t.equal(server.stderr(), '');
});

t.test('a request in flight when SIGTERM arrives gets its full response', async (t) => {
  const { dir, apiKey } = await books(t);
  const server = await startAcct(t, serveArgs(dir));
  const body = JSON.stringify({ name: 'In Flight Ltd' });
  const req = http.request(`${server.url}/v1/organisation`, {
    method: 'PUT',
    agent: false,
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      // The server answers 100 Continue once it has taken the request: then it is surely in flight.
      expect: '100-continue',
    },
  });
  // node:http rather than fetch, for Expect: 100-continue.
  const response = new Promise<{ status: number; body: { success: boolean; data: { name: string } } }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      res.on('error', reject);
    });
  });
  const continued = once(req, 'continue');
  req.flushHeaders();
  await continued;

  server.child.kill('SIGTERM');
  await waitUntilRefused(server.url); // the server has begun to shut down: it accepts nothing new
  req.end(body);
  const reply = await response;
  t.equal(reply.status, 200, 'the request in flight was answered');
  t.equal(reply.body.success, true);
  t.equal(reply.body.data.name, 'In Flight Ltd');
  t.same(await server.exited, { code: 0, signal: null }, 'then the process exits 0');
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).name, 'In Flight Ltd', 'and the change was committed');
});

t.test('the CLI reads and writes the same organisation while the server runs', async (t) => {
  const { dir, organisationId, apiKey } = await books(t);
  const server = await startAcct(t, serveArgs(dir));

  const org = await acctJson(t, dir, ['--org', organisationId, 'organisation', 'get']);
  t.equal(org.id, organisationId, 'the CLI reads the organisation while it is served');

  const put = await request(server.url, 'PUT', '/v1/organisation', { key: apiKey, body: { name: 'Renamed Over HTTP Ltd', city: 'Leeds' } });
  t.equal(put.status, 200);
  const seen = await acctJson(t, dir, ['--org', organisationId, 'organisation', 'get']);
  t.equal(seen.name, 'Renamed Over HTTP Ltd', 'a PUT through HTTP is visible to the CLI');
  t.equal(seen.address.city, 'Leeds');

  const updated = await acctJson(t, dir, ['--org', organisationId, 'settings', 'update', '--invoice-prefix', 'CLI-', '--invoice-next-number', '7']);
  t.equal(updated.invoicePrefix, 'CLI-');
  const got = await request(server.url, 'GET', '/v1/organisation/settings', { key: apiKey });
  t.equal(got.status, 200);
  t.equal(got.body.data.invoicePrefix, 'CLI-', 'a CLI settings update is visible through HTTP');
  t.equal(got.body.data.invoiceNextNumber, 7);

  server.child.kill('SIGTERM');
  t.same(await server.exited, { code: 0, signal: null });
});

t.test('--json output is exactly the data the API returns', async (t) => {
  const { dir, organisationId, apiKey, testApiKey } = await books(t, { name: 'Same Data Ltd', vatScheme: 'flat_rate', vatFlatRatePercent: 14.5 });
  const server = await startAcct(t, serveArgs(dir));
  const cases: [string[], string, string][] = [
    [['organisation', 'get'], '/v1/organisation', apiKey],
    [['settings', 'get'], '/v1/organisation/settings', apiKey],
    [['keys', 'list'], '/v1/api-keys', apiKey],
    [['--test', 'organisation', 'get'], '/v1/organisation', testApiKey],
  ];
  for (const [args, path, key] of cases) {
    const res = await request(server.url, 'GET', path, { key });
    t.equal(res.status, 200, path);
    t.same(await acctJson(t, dir, ['--org', organisationId, ...args]), res.body.data, `acct ${args.join(' ')} = GET ${path}`);
  }
  // A list the API wraps ({periods: […]}) prints as the array itself, the one shape of every list under --json.
  const periods = await acctJson(t, dir, ['periods', 'list']);
  t.same(
    periods,
    (await request(server.url, 'GET', '/v1/reports/periods', { key: apiKey })).body.data.periods,
    'acct periods list = GET /reports/periods, its list',
  );
  const res = await request(server.url, 'GET', `/v1/reports/periods/${periods[0].id}`, { key: apiKey });
  t.same(await acctJson(t, dir, ['periods', 'get', periods[0].id]), res.body.data, 'periods get = GET /reports/periods/{id}');

  // and the JSON is printed as such: nothing but the data on standard output
  const raw = await runCliInProcess(['--data', dir, '--org', organisationId, '--json', 'settings', 'get']);
  t.equal(raw.stdout, `${JSON.stringify((await request(server.url, 'GET', '/v1/organisation/settings', { key: apiKey })).body.data, null, 2)}\n`);
  t.equal(raw.stderr, '');
});

t.test('one serve answers every organisation of the data directory', async (t) => {
  const dir = t.testdir();
  const first = await init(t, dir, ['--name', 'First Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard']);
  const second = await init(t, dir, ['--name', 'Second Ltd', '--business-type', 'sole_trader', '--vat-scheme', 'not_registered']);
  const server = await startAcct(t, serveArgs(dir));
  const a = await request(server.url, 'GET', '/v1/organisation', { key: first.apiKey });
  const b = await request(server.url, 'GET', '/v1/organisation', { key: second.apiKey });
  t.equal(a.body.data.name, 'First Ltd');
  t.equal(b.body.data.name, 'Second Ltd');
  // an organisation created while the server runs is served at once
  const third = await init(t, dir, ['--name', 'Third Ltd', '--business-type', 'sole_trader', '--vat-scheme', 'standard']);
  const c = await request(server.url, 'GET', '/v1/organisation', { key: third.apiKey });
  t.equal(c.status, 200);
  t.equal(c.body.data.name, 'Third Ltd');
});

t.test('serve refuses a port that is not a number', async (t) => {
  const dir = t.testdir();
  const r = runCli(['--data', dir, 'serve', '--port', 'abc']);
  t.equal(r.status, 2);
  t.equal(r.stdout, '');
  // The wording is the option parser's; what matters is that it names the value and the range.
  t.match(r.stderr, /abc/);
  t.match(r.stderr, /port/);
  t.match(r.stderr, /0 to 65535/);
});

/** `acct keys create|list|rotate|revoke`, checked against a running `acct serve` on the same files. */
import t from 'tap';
import { acctJson, books, liveKeyShape, testKeyShape } from './support.js';
import { request, runCliInProcess, startAcct } from '../helpers/index.js';

const serveArgs = (dir: string) => ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0'];

t.test('keys create prints the key once, with its scopes', async (t) => {
  const { dir } = await books(t);
  const r = await runCliInProcess(['--data', dir, '--json', 'keys', 'create', '--name', 'CI', '--scopes', 'reports:read,accounts:read']);
  t.equal(r.status, 0, r.stderr);
  const created = JSON.parse(r.stdout);
  t.match(created.key, liveKeyShape);
  t.equal(created.name, 'CI');
  t.equal(created.mode, 'live');
  t.strictSame(created.scopes, ['accounts:read', 'reports:read']);
  t.equal(created.prefix, created.key.slice(0, 8));
  t.equal(created.isActive, true);
  t.equal(r.stdout.split(created.key).length, 2, 'the key appears once');

  // A list flag given twice adds up: the second --scopes does not silently replace the first.
  const twice = await acctJson(t, dir, ['keys', 'create', '--name', 'Twice', '--scopes', 'reports:read', '--scopes', 'invoices:write,accounts:read']);
  t.strictSame(twice.scopes, ['accounts:read', 'invoices:write', 'reports:read']);

  const all = await acctJson(t, dir, ['keys', 'create', '--name', 'Everything']);
  t.equal(all.scopes.length, 17, 'no scopes given: all of them');
  t.not(all.key, created.key);

  const human = await runCliInProcess(['--data', dir, 'keys', 'create', '--name', 'Readable']);
  t.equal(human.status, 0);
  t.match(human.stdout, /^key\s+sk_live_[0-9A-Za-z]{32}\s*$/m, 'the readable output shows the key too');
});

t.test('keys list never prints a key', async (t) => {
  const { dir, apiKey } = await books(t);
  const created = await acctJson(t, dir, ['keys', 'create', '--name', 'CI', '--scopes', 'reports:read']);
  const json = await runCliInProcess(['--data', dir, '--json', 'keys', 'list']);
  t.equal(json.status, 0);
  const listed = JSON.parse(json.stdout);
  t.strictSame(
    listed.map((k: { name: string }) => k.name),
    ['CI', 'Default live key'],
  );
  for (const k of listed) t.notOk('key' in k, `${k.name}: no key field`);
  t.notMatch(json.stdout, /sk_live_[0-9A-Za-z]{32}/, 'no full key in the JSON');
  t.notOk(json.stdout.includes(created.key.slice(8)));
  t.notOk(json.stdout.includes(apiKey.slice(8)));

  const human = await runCliInProcess(['--data', dir, 'keys', 'list']);
  t.equal(human.status, 0);
  t.match(human.stdout, /Default live key/);
  t.notMatch(human.stdout, /sk_live_[0-9A-Za-z]{32}/, 'no full key in the table');
});

t.test('keys rotate and revoke take effect at once on a running server', async (t) => {
  const { dir, apiKey } = await books(t);
  const created = await acctJson(t, dir, ['keys', 'create', '--name', 'CI', '--scopes', 'reports:read,accounts:read']);
  const server = await startAcct(t, serveArgs(dir));
  t.equal((await request(server.url, 'GET', '/v1/reports/periods', { key: created.key })).status, 200, 'the new key answers');

  const rotated = await acctJson(t, dir, ['keys', 'rotate', created.id]);
  t.match(rotated.key, liveKeyShape);
  t.not(rotated.key, created.key);
  t.not(rotated.id, created.id);
  t.equal(rotated.replaces, created.id);
  t.equal(rotated.name, 'CI');
  t.strictSame(rotated.scopes, ['accounts:read', 'reports:read'], 'same scopes');

  const old = await request(server.url, 'GET', '/v1/reports/periods', { key: created.key });
  t.equal(old.status, 401, 'the old key is refused');
  t.equal(old.body.error.code, 'unauthorized');
  const fresh = await request(server.url, 'GET', '/v1/reports/periods', { key: rotated.key });
  t.equal(fresh.status, 200, 'the new key answers');
  const listed = await acctJson(t, dir, ['keys', 'list']);
  const oldRow = listed.find((k: { id: string }) => k.id === created.id);
  t.equal(oldRow.isActive, false);
  t.equal(oldRow.replacedBy, rotated.id);

  const revoked = await acctJson(t, dir, ['keys', 'revoke', rotated.id]);
  t.equal(revoked.id, rotated.id);
  t.equal(revoked.revoked, true);
  t.match(revoked.revokedAt, /^\d{4}-\d{2}-\d{2}T/);
  const gone = await request(server.url, 'GET', '/v1/organisation', { key: rotated.key });
  t.equal(gone.status, 401, 'a revoked key is refused');
  t.equal(gone.body.error.code, 'unauthorized');
  t.equal((await request(server.url, 'GET', '/v1/organisation', { key: apiKey })).status, 200, 'other keys still answer');

  const again = await runCliInProcess(['--data', dir, 'keys', 'revoke', rotated.id]);
  t.equal(again.status, 4);
  t.equal(again.stderr, `error conflict: API key ${rotated.id} is already revoked\n`);
  const rotateRevoked = await runCliInProcess(['--data', dir, 'keys', 'rotate', created.id]);
  t.equal(rotateRevoked.status, 4);
  t.equal(rotateRevoked.stderr, `error conflict: API key ${created.id} is revoked and cannot be rotated\n`);

  server.child.kill('SIGTERM');
  t.strictSame(await server.exited, { code: 0, signal: null });
});

t.test('--test keys create makes an sk_test_ key that only the test books know', async (t) => {
  const { dir } = await books(t);
  const created = await acctJson(t, dir, ['--test', 'keys', 'create', '--name', 'Sandbox']);
  t.match(created.key, testKeyShape);
  t.equal(created.mode, 'test');
  t.strictSame(
    (await acctJson(t, dir, ['--test', 'keys', 'list'])).map((k: { name: string }) => k.name),
    ['Sandbox', 'Default test key'],
  );
  t.strictSame(
    (await acctJson(t, dir, ['keys', 'list'])).map((k: { name: string }) => k.name),
    ['Default live key'],
    'not among the live keys',
  );

  const live = await runCliInProcess(['--data', dir, 'keys', 'revoke', created.id]);
  t.equal(live.status, 3, 'a test key is not found among the live keys');
  t.equal(live.stderr, `error not_found: API key ${created.id} not found\n`);

  await acctJson(t, dir, ['--test', 'organisation', 'update', '--name', 'Sandbox Ltd']);
  const server = await startAcct(t, serveArgs(dir));
  const res = await request(server.url, 'GET', '/v1/organisation', { key: created.key });
  t.equal(res.status, 200);
  t.equal(res.body.data.mode, 'test');
  t.equal(res.body.data.name, 'Sandbox Ltd', 'the test key sees the test books');
});

t.test('keys refuse unknown scopes, unknown ids and malformed ids', async (t) => {
  const { dir } = await books(t);
  const scopes = await runCliInProcess(['--data', dir, '--json', 'keys', 'create', '--scopes', 'reports:read,bogus']);
  t.equal(scopes.status, 2);
  t.strictSame(JSON.parse(scopes.stderr), { error: { code: 'validation_error', message: '--scopes contains unknown scopes: bogus', field: '--scopes' } });
  const unknown = await runCliInProcess(['--data', dir, 'keys', 'rotate', 'key_doesnotexist']);
  t.equal(unknown.status, 3);
  t.equal(unknown.stderr, 'error not_found: API key key_doesnotexist not found\n');
  const malformed = await runCliInProcess(['--data', dir, 'keys', 'revoke', 'sk_live_x']);
  t.equal(malformed.status, 2);
  t.equal(malformed.stderr, 'error invalid_id: <id> must be an id starting key_ (field <id>)\n');
  t.strictSame(
    (await acctJson(t, dir, ['keys', 'list'])).map((k: { name: string }) => k.name),
    ['Default live key'],
    'no key was made',
  );
});

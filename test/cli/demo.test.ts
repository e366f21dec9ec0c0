/** `acct demo` (what npm start runs): the demo organisation, its URL and a fresh key on every start. */
import fs from 'node:fs';
import t from 'tap';
import { liveKeyShape, uuidShape } from './support.js';
import { request, startAcct } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

const pkg = JSON.parse(fs.readFileSync(projectFile('package.json'), 'utf8')) as { scripts: Record<string, string> };

const ready = /Stop with Ctrl-C\.\n/;

function printed(stdout: string): { org: string; created: boolean; key: string } {
  const org = /^(Created|Serving) the demo organisation (\S+)$/m.exec(stdout);
  const key = /^API key: (\S+)$/m.exec(stdout);
  return { org: org?.[2] ?? '', created: org?.[1] === 'Created', key: key?.[1] ?? '' };
}

t.test('npm start runs acct demo', async (t) => {
  t.equal(pkg.scripts['start'], 'node bin/acct demo');
});

t.test('demo prints the URL and a key that answers; a second start issues a new key and revokes the first', async (t) => {
  const dir = t.testdir();
  const first = await startAcct(t, ['--data', dir, 'demo', '--port', '0'], { ready });
  const [urlLine] = first.stdout().split('\n');
  t.equal(urlLine, `acct listening on ${first.url} (data ${dir})`, 'the URL line first');
  const one = printed(first.stdout());
  t.equal(one.created, true, 'the demo organisation is created on the first start');
  t.match(one.org, uuidShape);
  t.match(one.key, liveKeyShape);
  t.match(first.stdout(), `curl -H "Authorization: Bearer ${one.key}" ${first.url}/v1/organisation`);
  const res = await request(first.url, 'GET', '/v1/organisation', { key: one.key });
  t.equal(res.status, 200, 'the printed key answers GET /v1/organisation');
  t.equal(res.body.data.id, one.org);
  t.equal(res.body.data.name, 'Hebden Bridge Joinery Ltd');
  first.child.kill('SIGTERM');
  t.strictSame(await first.exited, { code: 0, signal: null });

  const second = await startAcct(t, ['--data', dir, 'demo', '--port', '0'], { ready });
  const two = printed(second.stdout());
  t.equal(two.created, false, 'the second start serves the same demo organisation');
  t.equal(two.org, one.org);
  t.match(two.key, liveKeyShape);
  t.not(two.key, one.key, 'a different key');
  const fresh = await request(second.url, 'GET', '/v1/organisation', { key: two.key });
  t.equal(fresh.status, 200);
  t.equal(fresh.body.data.id, one.org);
  const stale = await request(second.url, 'GET', '/v1/organisation', { key: one.key });
  t.equal(stale.status, 401, 'the first key is revoked');
  t.equal(stale.body.error.code, 'unauthorized');
  second.child.kill('SIGTERM');
  t.strictSame(await second.exited, { code: 0, signal: null });
});

import { spawn } from 'node:child_process';
import t from 'tap';
import { acctCommand, childEnv, newBooks, serveBooks } from '../helpers/index.js';

/** Run bin/acct asynchronously, so several can run at once. */
function acct(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const [cmd, argv] = acctCommand([...args]);
  const child = spawn(cmd, argv, { env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

t.test('a running server and two CLI processes write the same organisation at once without a busy error', async (t) => {
  const books = await newBooks(t);
  const api = await serveBooks(t, books);
  const cliWriter = async (prefix: string) => {
    const results = [];
    for (let i = 1; i <= 6; i++) {
      results.push(await acct(['--data', books.dataDir, 'settings', 'update', '--invoice-prefix', `${prefix}${i}-`]));
    }
    return results;
  };
  const httpWriter = async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i++) {
      statuses.push((await api.request('PUT', '/v1/organisation/settings', { body: { quoteNextNumber: i } })).status);
    }
    return statuses;
  };
  const [a, b, statuses] = await Promise.all([cliWriter('A'), cliWriter('B'), httpWriter()]);
  for (const r of [...a, ...b]) t.equal(r.code, 0, r.stderr);
  t.same(statuses, Array(40).fill(200), 'every HTTP write succeeded');
  const settings = (await api.request('GET', '/v1/organisation/settings')).body.data;
  t.equal(settings.quoteNextNumber, 40, 'the last HTTP write is there');
  t.match(settings.invoicePrefix, /^[AB]6-$/, 'the last CLI write of one of the two is there');
});

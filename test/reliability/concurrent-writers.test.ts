/**
 * acct serve and two CLI processes post to the same organisation at once:
 * no request fails with a busy error, every acknowledged posting is there
 * exactly once, and nothing else is.
 */
import { spawn } from 'node:child_process';
import t from 'tap';
import { acctCommand, childEnv, newBooks, serveBooks } from '../helpers/index.js';

function post(dataDir: string, reference: string): Promise<{ code: number | null; stderr: string }> {
  const [cmd, argv] = acctCommand(['--data', dataDir, 'post', '2026-06-01', 'CLI posting', '5100=1.00', '1200=-1.00', '--ref', reference]);
  const child = spawn(cmd, argv, { env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

t.test('a server and two CLI processes post at once: nothing lost, nothing doubled, no busy error', async (t) => {
  const books = await newBooks(t);
  const api = await serveBooks(t, books);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)?.id;
  const acknowledged: string[] = [];
  const failures: string[] = [];
  const cli = async (name: string) => {
    for (let i = 0; i < 8; i++) {
      const reference = `${name}-${i}`;
      const r = await post(books.dataDir, reference);
      if (r.code === 0) acknowledged.push(reference);
      else failures.push(`${reference}: ${r.stderr}`);
    }
  };
  // Four connections at once, so that the server also groups its own writes into shared commits, for as long as the
  // CLI processes are at work (and 10 postings each at least): the writes overlap however slowly the processes start.
  let clisDone = false;
  const http = async (connection: number) => {
    for (let i = 0; !clisDone || i < 10; i++) {
      const reference = `HTTP-${connection}-${i}`;
      const r = await api.request('POST', '/v1/transactions', {
        body: {
          date: '2026-06-01',
          description: 'HTTP posting',
          reference,
          lines: [
            { accountId: id('5100'), amount: 100 },
            { accountId: id('1200'), amount: -100 },
          ],
        },
      });
      if (r.status === 201) acknowledged.push(reference);
      else failures.push(`${reference}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  const started = Date.now();
  const clis = Promise.all([cli('A'), cli('B')]).finally(() => (clisDone = true));
  await Promise.all([clis, ...[1, 2, 3, 4].map(http)]);
  t.comment(
    `${acknowledged.length} postings acknowledged: ${acknowledged.filter((r) => r.startsWith('HTTP-')).length} over HTTP on 4 connections, 16 by two CLI processes, in ${Date.now() - started} ms`,
  );
  t.same(failures, [], 'no request failed');
  const rows = await books.store.org(books.organisationId, 'live').db.selectFrom('transactions').select('reference').execute();
  const stored = rows.map((r) => r.reference ?? '').sort();
  t.same(stored, [...acknowledged].sort(), 'every acknowledged posting is there exactly once, and nothing else');
  t.ok(acknowledged.filter((r) => r.startsWith('HTTP-')).length >= 40, 'the server kept answering while the CLI wrote');
  const sum = await books.store
    .org(books.organisationId, 'live')
    .db.selectFrom('lines')
    .select((eb) => eb.fn.sum<number>('amount').as('s'))
    .executeTakeFirstOrThrow();
  t.equal(Number(sum.s), 0);
});

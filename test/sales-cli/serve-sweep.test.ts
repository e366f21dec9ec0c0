/**
 * `acct serve --sweep-interval`: the overdue sweep runs at start and then
 * every interval, by the real clock, over the served data directory; the
 * server still exits 0 on SIGTERM.
 */
import t from 'tap';
import { delay, init } from '../cli/support.js';
import { customerOk, sentPastDueOk } from './support.js';
import { generousMs, request, startAcct } from '../helpers/index.js';
import type { Kysely } from 'kysely';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { OrgDb } from '../../src/store/tables.js';

/**
 * The invoice's stored status, read from the books' file (a GET would sweep
 * the books itself), until it is `status` or `ms` have passed; the statuses
 * seen. Only a sweep moves an invoice to overdue, so a generous wait still
 * fails when no sweep is coming, and does not fail because a loaded machine
 * made the sweep late.
 */
async function waitForStatus(db: Kysely<OrgDb>, id: string, status: string, ms: number): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + ms;
  for (;;) {
    const now = (await db.selectFrom('invoices').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status as string;
    if (seen.at(-1) !== now) seen.push(now);
    if (now === status || Date.now() > deadline) return seen;
    await delay(100);
  }
}

t.test('serve sweeps at start and every --sweep-interval seconds', async (t) => {
  const dir = t.testdir();
  const { apiKey, organisationId } = await init(t, dir);
  const store = SqliteStore.open(dir);
  t.teardown(() => store.close());
  const db = store.org(organisationId, 'live').db;
  const contactId = await customerOk(t, dir);
  const before = await sentPastDueOk(t, dir, contactId);

  const server = await startAcct(t, ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0', '--sweep-interval', '1']);
  const first = await waitForStatus(db, before.id, 'overdue', generousMs);
  t.equal(first.at(-1), 'overdue', `the invoice sent before serving became overdue (seen ${first.join(' → ')})`);

  const created = await request(server.url, 'POST', '/v1/invoices', {
    key: apiKey,
    body: {
      contactId,
      issueDate: '2026-01-01',
      dueDate: '2026-01-31',
      items: [{ description: 'Consulting', quantity: 1, unitPrice: 10000, vatRate: 'standard' }],
    },
  });
  t.equal(created.status, 201, JSON.stringify(created.body?.error ?? ''));
  const id = created.body.data.id as string;
  const sent = await request(server.url, 'POST', `/v1/invoices/${id}/send`, { key: apiKey, body: {} });
  t.equal(sent.status, 200, JSON.stringify(sent.body?.error ?? ''));
  t.equal(sent.body.data.status, 'overdue', 'the reply says what a read would; the books say sent until the sweep');
  // Not swept at start (sent after it), and the server wakes for nothing else: only the sweep every second can move it.
  const later = await waitForStatus(db, id, 'overdue', generousMs);
  t.equal(later.at(-1), 'overdue', `an invoice sent while serving became overdue at the next sweep (seen ${later.join(' → ')})`);

  server.child.kill('SIGTERM');
  t.same(await server.exited, { code: 0, signal: null }, 'exit status 0 on SIGTERM');
  t.equal(server.stderr(), '', 'no sweep reported a failure');
});

/**
 * The overdue sweep as acct serve runs it (OverdueSweeper), over a store
 * whose cache is smaller than the organisations: every set of books at
 * start and on each new UK day, and in between only the books issued into
 * by this process or written by another, so that an idle server opens
 * nothing (issue 15: 2,000 sets of books opened every minute).
 */
import t from 'tap';
import { eventually, generousMs, movingClock, newBooks, serveBooks, type Api, type Books } from '../helpers/index.js';
import { OverdueSweeper } from '../../src/engine/sales/overdue.js';
import { moreOrganisations, storeOver } from './support.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A customer and a sent invoice of £100 (no VAT) due on `dueDate`; its id. */
async function sentInvoice(api: Api, dueDate: string): Promise<string> {
  const contact = await api.request('POST', '/v1/contacts', { body: { name: 'Acme Ltd', contactType: 'customer' } });
  if (contact.status !== 201) throw new Error(`contact: ${JSON.stringify(contact.body)}`);
  const created = await api.request('POST', '/v1/invoices', {
    body: {
      contactId: contact.body.data.id,
      issueDate: '2026-03-01',
      dueDate,
      items: [{ description: 'Consulting', quantity: 1, unitPrice: 10000, vatRate: 'zero' }],
    },
  });
  if (created.status !== 201) throw new Error(`invoice: ${JSON.stringify(created.body)}`);
  const id = created.body.data.id as string;
  const sent = await api.request('POST', `/v1/invoices/${id}/send`, { body: {} });
  // One past its due date is still sent in the books, for the sweep to move, though the reply says overdue (as a read would).
  if (sent.status !== 200 || !['sent', 'overdue'].includes(sent.body.data.status as string)) throw new Error(`send: ${JSON.stringify(sent.body)}`);
  return id;
}

/**
 * The invoice's stored status once it is `want` or `ms` have passed, read
 * from the file through the server's store: a GET would sweep the books
 * itself, and a read through another store would open and close the file
 * beside the server, which the server may take for another process's write
 * (and open the books again, failing the idle check now and then). The
 * sweeps are every 100 ms, but only a sweep moves an invoice: a wait of
 * 20 s (the default) is long enough for a loaded machine and still ends in
 * a failure when no sweep is going to look at the books; 0 reads the status
 * now.
 */
async function statusWithin(store: SqliteStore, books: Books, id: string, want: string, ms = generousMs): Promise<string> {
  return eventually(
    async () =>
      (await store.org(books.organisationId, 'live').db.selectFrom('invoices').select('status').where('id', '=', id).executeTakeFirstOrThrow())
        .status as string,
    (status) => status === want,
    ms,
  );
}

t.test('everything at start and each new day; in between only the books issued into or written elsewhere', async (t) => {
  // 12:00 UTC on 10 March 2026 is 12:00 in London (GMT until 29 March).
  const clock = movingClock('2026-03-10T12:00:00Z');
  const books = await newBooks(t, { clock });
  await moreOrganisations(books, 3);
  const store = storeOver(t, books, 2); // the server's store: 4 organisations, 8 sets of books, 2 files open at most
  const api = await serveBooks(t, { ...books, store });
  const elsewhere = storeOver(t, books); // another process, such as the CLI beside the server
  const apiElsewhere = await serveBooks(t, { ...books, store: elsewhere });
  const opened: string[] = [];
  store.onOpen((orgId, mode) => opened.push(`${orgId} ${mode}`));
  const pastDue = await sentInvoice(api, '2026-03-09');

  const sweeper = new OverdueSweeper(store, { clock, intervalMs: 100, report: (m) => t.fail(`the sweeper reported: ${m}`) });
  t.teardown(() => sweeper.stop());
  const looked: string[] = [];
  t.equal(
    await sweeper.start(async (b) => void looked.push(`${b.orgId === books.organisationId ? 'ours' : 'another'} ${b.mode}`)),
    1,
    'the first sweep moved the invoice due yesterday',
  );
  t.equal(looked.length, 8, 'and gave each of the 8 sets of books to the pass that follows it, once');
  t.equal(await statusWithin(store, books, pastDue, 'overdue', 0), 'overdue');

  opened.length = 0;
  await delay(700);
  t.same(opened, [], 'idle for seven sweeps, no books were opened');

  // Issued here: the store's trigger announces it, and the next sweep opens those books alone.
  const issuedHere = await sentInvoice(api, '2026-03-09');
  opened.length = 0;
  t.equal(await statusWithin(store, books, issuedHere, 'overdue'), 'overdue', 'an invoice sent past its due date by this process is overdue at the next sweep');
  t.ok(
    opened.every((o) => o === `${books.organisationId} live`),
    `no other books were opened (${opened.length} opened: our live books, if the cache had closed them)`,
  );

  // Issued by another process: no trigger here, found by the files' change instead.
  const issuedElsewhere = await sentInvoice(apiElsewhere, '2026-03-08');
  t.equal(
    await statusWithin(store, books, issuedElsewhere, 'overdue'),
    'overdue',
    'an invoice sent past its due date by another process is overdue at the next sweep',
  );

  // Due today: not overdue today, overdue at the first sweep after London's midnight.
  const dueToday = await sentInvoice(api, '2026-03-10');
  await delay(400);
  t.equal(await statusWithin(store, books, dueToday, 'overdue', 0), 'sent', 'due today is not overdue');
  opened.length = 0;
  clock.advance(12 * 3600_000 + 30_000); // 00:00:30 on 11 March in London
  t.equal(await statusWithin(store, books, dueToday, 'overdue'), 'overdue', 'overdue once the day after its due date begins');
  // That sweep goes on to the other books, which only a new day's sweep opens: seen within the wait, or never.
  const reopened = await eventually(
    () => new Set(opened).size,
    (n) => n >= 7,
  );
  t.ok(reopened >= 7, `the new day's sweep opened every set of books again (${reopened} of 8; the one left open by the last request need not be)`);
  // Stopped here, before the teardowns close the stores: a sweep still in flight would find its store closed and report it after the test.
  await sweeper.stop();
});

t.test('an interval of 0 sweeps only at start', async (t) => {
  const clock = movingClock('2026-03-10T12:00:00Z');
  const books = await newBooks(t, { clock });
  const store = storeOver(t, books);
  const api = await serveBooks(t, { ...books, store });
  const sweeper = new OverdueSweeper(store, { clock, intervalMs: 0, report: (m) => t.fail(`the sweeper reported: ${m}`) });
  t.teardown(() => sweeper.stop());
  t.equal(await sweeper.start(), 0, 'nothing to move at start');
  const id = await sentInvoice(api, '2026-03-09');
  await delay(300);
  t.equal(await statusWithin(store, books, id, 'overdue', 0), 'sent', 'no sweep after the one at start');
});

/**
 * Store.changedElsewhere(): the books another process wrote, found without
 * opening anything (PRAGMA data_version while a file is open, its size and
 * modification time while closed), and never this process's own writes.
 */
import t from 'tap';
import { newBooks } from '../helpers/index.js';
import type { Store } from '../../src/store/store.js';
import { moreOrganisations, storeOver } from './support.js';

/** A write, and the turn of the event loop after it: the handle is idle once its write queue has wound down. */
async function probe(store: Store, orgId: string, n: number): Promise<void> {
  await store.org(orgId, 'live').write((trx) =>
    trx
      .insertInto('row_counts')
      .values({ table_name: `probe-${n}`, n })
      .execute(),
  );
  await new Promise((resolve) => setImmediate(resolve));
}

t.test('another connection’s writes are reported once, open or closed; our own never', async (t) => {
  const books = await newBooks(t);
  const [neighbour] = await moreOrganisations(books, 1);
  const theirs = (neighbour as { organisationId: string }).organisationId;
  const ours = books.organisationId;
  const store = storeOver(t, books, 1);
  const elsewhere = storeOver(t, books);
  const changed = async () => (await store.changedElsewhere()).map((b) => `${b.orgId === ours ? 'ours' : 'theirs'} ${b.mode}`);

  await probe(store, ours, 1);
  await probe(store, theirs, 2);
  t.equal(store.openFiles, 1, 'ours is closed, theirs open');
  t.same(await changed(), [], 'our own writes are not reported');

  await probe(elsewhere, ours, 3);
  t.same(await changed(), ['ours live'], 'a write elsewhere to books whose file is closed (by its files)');
  t.same(await changed(), [], 'reported once');

  await probe(elsewhere, theirs, 4);
  t.same(await changed(), ['theirs live'], 'a write elsewhere to books whose file is open (by data_version)');
  t.same(await changed(), []);

  await probe(elsewhere, ours, 5);
  await probe(store, ours, 6);
  t.equal(store.openFiles, 1, 'ours open again, theirs closed');
  t.same(await changed(), ['ours live'], 'a write elsewhere while closed is still reported after the file is opened again');

  await probe(elsewhere, theirs, 7);
  await elsewhere.close();
  t.same(await changed(), ['theirs live'], 'and one that the other process copied into the database file as it closed');
  t.same(await changed(), []);
});

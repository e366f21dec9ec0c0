/**
 * The books held by another writer for longer than the busy timeout (10 s):
 * the request is 503 service_unavailable with a Retry-After, writes
 * nothing, and the same request succeeds once the writer is done.
 */
import Database from 'better-sqlite3';
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { orgFile } from '../../src/store/data-dir.js';

t.test('a write that waits more than 10 s for the books is 503 service_unavailable with Retry-After', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  if (books.store.kind !== 'sqlite') {
    t.pass('a SQLite file lock only');
    return;
  }
  const api = await serveBooks(t, books, { onLogError: () => {} });
  // Another process's write transaction (the CLI's, a backup tool's), held past the server's 10 s busy timeout.
  const other = new Database(orgFile(books.dataDir, books.organisationId, 'live'));
  t.teardown(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  const busy = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Busy Ltd' } });
  other.exec('ROLLBACK');
  t.equal(busy.status, 503);
  t.equal(busy.body.error.code, 'service_unavailable');
  t.match(busy.body.error.message, /busy/);
  const retryAfter = Number(busy.headers.get('retry-after'));
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 5, `Retry-After: ${busy.headers.get('retry-after')} (a few seconds)`);

  t.equal((await api.request('GET', '/v1/contacts')).body.meta.total, 0, 'nothing written');
  const again = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Busy Ltd' } });
  t.equal(again.status, 201, 'the same request, once the other writer is done');
});

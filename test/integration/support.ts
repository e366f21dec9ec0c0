/**
 * Helpers of the integration tests (not a test file itself): a real server
 * with rate limits on and failures collected rather than failed on, and
 * row counts.
 */
import type { Test } from 'tap';
import { serveBooks, type Books, type ServeOptions, type ServedApi } from '../helpers/index.js';

export { allScopes, createKey, expectError } from '../http/support.js';

/**
 * A real server over the books, as `acct serve` builds it: rate limits on
 * unless told otherwise. Failures the server reports are collected in
 * `logged` rather than failing the test (a test of a 500 expects one).
 */
export function serveWith(t: Test, books: Books, options: ServeOptions = {}): Promise<ServedApi> {
  return serveBooks(t, books, { rateLimits: true, onLogError: () => undefined, ...options });
}

/** How many rows a table of the organisation's live (or test) database holds. */
export async function rowCount(
  books: Books,
  table: 'contacts' | 'invoices' | 'idempotency_keys' | 'outbox' | 'payments' | 'transactions' | 'lines',
  organisationId: string = books.organisationId,
  mode: 'live' | 'test' = 'live',
): Promise<number> {
  const row = await books.store
    .org(organisationId, mode)
    .db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Helpers of the request log tests (not a test file itself): the log's rows as stored. */
import type { Books } from '../helpers/index.js';
import type { RequestLogTable } from '../../src/store/tables.js';

/** The request log rows of the books' live (or test) database, newest first. */
export function logRows(books: Books, mode: 'live' | 'test' = 'live'): Promise<RequestLogTable[]> {
  return books.store.org(books.organisationId, mode).db.selectFrom('request_log').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

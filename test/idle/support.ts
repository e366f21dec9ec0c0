/**
 * Helpers of the idle tests (not a test file itself): organisations beside
 * the one newBooks makes, and a second store over the same data directory,
 * as `acct serve` opens it, with a cache small enough to evict.
 */
import type { Test } from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { defaultOrganisation, type Books } from '../helpers/index.js';

export interface Other {
  readonly organisationId: string;
  readonly apiKey: string;
}

/** `n` more organisations in the books' data directory. */
export async function moreOrganisations(books: Books, n: number): Promise<Other[]> {
  const made: Other[] = [];
  for (let i = 0; i < n; i++) {
    const o = await createOrganisation(books.store, books.clock, { ...defaultOrganisation, name: `Neighbour ${i + 1} Ltd` });
    made.push({ organisationId: o.organisationId, apiKey: o.apiKey });
  }
  return made;
}

/** Another store over the books' data directory (another set of connections, as another process has), closed when the test ends. */
export function storeOver(t: Test, books: Books, cacheSize?: number): SqliteStore {
  const store = SqliteStore.open(books.dataDir, cacheSize === undefined ? {} : { cacheSize });
  t.teardown(() => store.close());
  return store;
}

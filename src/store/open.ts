/** Open the store a data directory and a database URL name. */
import { SqliteStore } from './sqlite-store.js';
import type { Store, StoreOptions } from './store.js';

export interface OpenOptions extends StoreOptions {
  /** `--database` or $ACCT_DATABASE_URL: a postgres:// URL; without one, the SQLite files in the data directory. */
  readonly database?: string;
}

export function openStore(dataDir: string, options: OpenOptions = {}): Promise<Store> {
  return Promise.resolve(SqliteStore.open(dataDir, options));
}

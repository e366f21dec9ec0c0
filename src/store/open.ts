/** Open the store a data directory and a database URL name: PostgreSQL for a postgres:// URL, else the SQLite files. */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../engine/errors.js';
import { createPrivateFile } from './file-modes.js';
import { SqliteStore } from './sqlite-store.js';
import { isPostgresUrl } from './postgres/url.js';
import type { Store, StoreOptions } from './store.js';

export interface OpenOptions extends StoreOptions {
  /** A postgres:// URL (`--database`, $ACCT_DATABASE_URL, or the one the data directory records); without one, the SQLite files. */
  readonly database?: string | undefined;
  /** Create the platform's database if it is not there (acct init, acct serve); otherwise PostgreSQL's must exist. */
  readonly create?: boolean;
  /**
   * Record a postgres:// `database` in the data directory, so that later commands on it need no flag: acct init only.
   * Any other command's --database (or $ACCT_DATABASE_URL) is for that run alone, and leaves the data directory as it was.
   */
  readonly record?: boolean;
}

/** The file in a data directory that records the database its books are in, when they are not its SQLite files. */
export const databaseFile = (dataDir: string): string => path.join(dataDir, 'database');

/**
 * The database a command works on: `--database`, else $ACCT_DATABASE_URL,
 * else the one the data directory records (acct init --database wrote it),
 * else none (the SQLite files in the data directory).
 */
export function resolveDatabase(flag: string | undefined, dataDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = flag ?? env['ACCT_DATABASE_URL'];
  if (given !== undefined && given !== '') return given;
  try {
    const recorded = fs.readFileSync(databaseFile(dataDir), 'utf8').trim();
    return recorded === '' ? undefined : recorded;
  } catch {
    return undefined;
  }
}

export async function openStore(dataDir: string, options: OpenOptions = {}): Promise<Store> {
  const database = options.database;
  if (database === undefined || database === '') return SqliteStore.open(dataDir, options);
  if (!isPostgresUrl(database)) throw new AppError('validation_error', `--database: expected a postgres:// URL, not ${database}`, 'database');
  // Loaded only here: pg and the PostgreSQL store are no part of a run over SQLite files.
  const { PostgresStore } = await import('./postgres/postgres-store.js');
  const store = await PostgresStore.open(dataDir, database, options);
  // The data directory remembers where its books are (0600: the URL may hold a password), so later commands need no flag.
  if (options.record === true && !fs.existsSync(databaseFile(dataDir))) {
    createPrivateFile(databaseFile(dataDir));
    fs.writeFileSync(databaseFile(dataDir), `${database}\n`);
  }
  return store;
}

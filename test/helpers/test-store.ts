/**
 * The store a test's books live in: SQLite files in its data directory, or,
 * when ACCT_TEST_DATABASE_URL names a PostgreSQL database (as .ci/run sets
 * it for the suites that run on both stores), schemas of that database
 * under a prefix of the test's own, dropped when the test ends. The data
 * directory records the URL, so the real bin/acct given `--data` finds the
 * same books.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Test } from 'tap';
import { openStore, resolveDatabase } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';

/** The PostgreSQL database the suites run against, if any. */
export const testDatabaseUrl = (): string | undefined => process.env['ACCT_TEST_DATABASE_URL'] || undefined;

/** A postgres:// URL to a schema prefix no other test uses. */
export function freshDatabaseUrl(base: string): string {
  const url = new URL(base);
  url.searchParams.set('schema', `t${randomBytes(6).toString('hex')}`);
  return url.toString();
}

/** Drop every schema a test's prefix made. */
export async function dropSchemas(url: string): Promise<void> {
  const parsed = new URL(url);
  const prefix = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (!prefix) return;
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname = $1 or nspname like $2`, [
      prefix,
      `${prefix}\\_%`,
    ]);
    for (const { nspname } of rows) await client.query(`drop schema "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}

/** Open the store of a test's data directory (created), closed and (PostgreSQL) dropped when the test ends. */
export async function openTestStore(t: Test, dataDir: string): Promise<Store> {
  const base = testDatabaseUrl();
  const database = base === undefined ? undefined : freshDatabaseUrl(base);
  const store = await openStore(dataDir, { database, create: true });
  t.teardown(async () => {
    await store.close();
    if (database !== undefined) await dropSchemas(database);
  });
  return store;
}

/** A second store over a test's books, as a second process would open it: the database its data directory records, else its SQLite files. */
export async function anotherStore(t: Test, dataDir: string): Promise<Store> {
  const store = await openStore(dataDir, { database: resolveDatabase(undefined, dataDir, {}) });
  t.teardown(() => store.close());
  return store;
}

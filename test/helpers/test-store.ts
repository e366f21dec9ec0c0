/**
 * The store a test's books live in: SQLite files in its data directory, or,
 * when ACCT_TEST_DATABASE_URL names a PostgreSQL database (as .ci/run sets
 * it for the suites that run on both stores), schemas of that database
 * under a prefix of the test's own, dropped when the test ends. The data
 * directory records the URL, so the real bin/acct given `--data` finds the
 * same books.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Test } from 'tap';
import { openStore, resolveDatabase } from '../../src/store/open.js';
import type { Mode, Store } from '../../src/store/store.js';
import { orgFile } from '../../src/store/data-dir.js';

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
  // As acct init: the data directory records the URL, so bin/acct given --data finds the same books.
  const store = await openStore(dataDir, { database, create: true, record: true });
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

const onPostgres = <DB>(db: Kysely<DB>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** The tables of a set of books (or the platform), by name, whichever store holds them (the store's own bookkeeping left out). */
export async function userTables<DB>(db: Kysely<DB>): Promise<string[]> {
  const query = onPostgres(db)
    ? sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema() and tablename <> 'acct_schema_version' order by name`
    : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`;
  return (await query.execute(db)).rows.map((r) => r.name);
}

/** Every row of a table in an order that stays while the table is not written (SQLite's rowid; PostgreSQL's rows as text). */
export async function rowsInOrder<DB>(db: Kysely<DB>, table: string): Promise<unknown[]> {
  const query = onPostgres(db) ? sql`select * from ${sql.table(table)} t order by t::text` : sql`select * from ${sql.table(table)} order by rowid`;
  return (await query.execute(db)).rows;
}

/**
 * A digest of each table's rows, by table name: equal digests, equal rows. On
 * PostgreSQL one query for them all, since each query there is a round trip.
 */
export async function tableDigests<DB>(db: Kysely<DB>, tables: readonly string[]): Promise<Map<string, string>> {
  if (tables.length === 0) return new Map();
  if (onPostgres(db)) {
    const each = tables.map(
      (name) => sql`select ${sql.lit(name)} as name, md5(coalesce(string_agg(t::text, chr(10) order by t::text), '')) as digest from ${sql.table(name)} t`,
    );
    const r = await sql<{ name: string; digest: string }>`${sql.join(each, sql` union all `)}`.execute(db);
    return new Map(r.rows.map((row) => [row.name, row.digest]));
  }
  const out = new Map<string, string>();
  for (const name of tables)
    out.set(
      name,
      createHash('sha256')
        .update(JSON.stringify(await rowsInOrder(db, name)))
        .digest('hex'),
    );
  return out;
}

/**
 * Everything a database holds, as text, to look for what must not be
 * stored in the clear: the SQLite file's bytes, or on PostgreSQL every row
 * of every table of the schema.
 */
export async function storedText<DB>(store: Store, db: Kysely<DB>, file: string): Promise<string> {
  if (store.kind === 'sqlite') return fs.readFileSync(file).toString('latin1');
  let text = '';
  for (const table of await userTables(db)) text += JSON.stringify(await rowsInOrder(db, table));
  return text;
}

/** Whether an organisation's books in one mode are there: their SQLite file, or their PostgreSQL schema. */
export async function booksExist(store: Store, dataDir: string, orgId: string, mode: Mode): Promise<boolean> {
  if (store.kind === 'sqlite') return fs.existsSync(orgFile(dataDir, orgId, mode));
  const schema = `${new URL(resolveDatabase(undefined, dataDir, {}) ?? '').searchParams.get('schema')}_${orgId.replace(/-/g, '')}_${mode}`;
  const { rows } = await sql<{ n: number }>`select count(*) as n from pg_namespace where nspname = ${schema}`.execute(store.platform.db);
  return rows[0]?.n === 1;
}

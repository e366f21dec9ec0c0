/**
 * Copy one SQLite database into one PostgreSQL schema migrated to the same
 * version (acct migrate-store): every table's rows, parents before the rows
 * that refer to them, in one transaction. The tables that triggers keep
 * (account_days, row_counts, ledger_totals) are not copied: with those
 * triggers off during the copy, they are filled from the copied rows at its
 * end by the statements their migrations fill them with (a row-by-row
 * trigger updating one row a million times in one transaction makes
 * PostgreSQL follow ever longer chains of versions of that row), and the
 * trial balance compared after the copy reads them. What a fresh schema's
 * migrations put in a copied table (a default setting) gives way to the
 * source's rows.
 */
import type pg from 'pg';
import { lend } from './lend.js';
import Database from 'better-sqlite3';
import { migrationsOf, type MigrationSet } from '../migrate.js';
import { quoted } from './schemas.js';

/** Tables a copy leaves to be derived from the rows copied. */
export const derived = new Set(['account_days', 'row_counts', 'ledger_totals']);

/** The tables whose triggers keep the derived ones: off while rows are copied into them. */
const deriving = ['transactions', 'lines'];

/** The derived tables filled from the copied rows, as migrations 0005, 0009 and 0019 fill them. */
const derive = `
DELETE FROM account_days;
INSERT INTO account_days (account_id, date, debit, credit)
SELECT account_id, date, SUM(CASE WHEN amount > 0 THEN amount ELSE 0 END), SUM(CASE WHEN amount < 0 THEN -amount ELSE 0 END)
FROM lines WHERE posted = 1 GROUP BY account_id, date;
UPDATE row_counts SET n = (SELECT COUNT(*) FROM transactions) WHERE table_name = 'transactions';
UPDATE ledger_totals SET total_debit = (SELECT COALESCE(SUM(total_debit), 0) FROM transactions) WHERE id = 1;`;

/** PostgreSQL takes at most 65,535 parameters a statement. */
const maxParameters = 60_000;

export interface TableCopy {
  readonly table: string;
  /** Rows in the source. */
  readonly source: number;
  /** Rows in the target after the copy. */
  readonly target: number;
}

interface Table {
  readonly name: string;
  readonly columns: readonly string[];
  /** The tables this one refers to (itself left out). */
  readonly parents: readonly string[];
  /** This table's columns that refer to its own rows, and the column each refers to. */
  readonly selfReferences: readonly { readonly from: string; readonly to: string }[];
}

function tablesOf(db: Database.Database): Table[] {
  const names = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as { name: string }[]).map(
    (r) => r.name,
  );
  return names.map((name) => {
    const columns = (db.prepare(`select name from pragma_table_info(?) order by cid`).all(name) as { name: string }[]).map((c) => c.name);
    const keys = db.prepare(`select "table" as parent, "from" as source, "to" as target from pragma_foreign_key_list(?)`).all(name) as {
      parent: string;
      source: string;
      target: string | null;
    }[];
    return {
      name,
      columns,
      parents: [...new Set(keys.filter((k) => k.parent !== name).map((k) => k.parent))],
      selfReferences: keys.filter((k) => k.parent === name).map((k) => ({ from: k.source, to: k.target ?? 'id' })),
    };
  });
}

/** Parents first. */
function inOrder(tables: readonly Table[]): Table[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: Table[] = [];
  const visit = (t: Table, path: Set<string>): void => {
    if (done.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const p of t.parents) {
      const parent = byName.get(p);
      if (parent) visit(parent, path);
    }
    done.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

/** Rows of a table that refers to itself, each after the row it refers to. */
function parentsFirst(rows: Record<string, unknown>[], refs: Table['selfReferences']): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const placed = new Set<string>();
  const present = new Set(rows.flatMap((r) => refs.map(({ to }) => `${to}:${String(r[to])}`)));
  let left = rows;
  while (left.length > 0) {
    const next: Record<string, unknown>[] = [];
    for (const row of left) {
      const ready = refs.every(({ from, to }) => {
        const value = row[from];
        const key = `${to}:${String(value)}`;
        return value === null || value === undefined || placed.has(key) || !present.has(key);
      });
      if (ready) {
        out.push(row);
        for (const { to } of refs) placed.add(`${to}:${String(row[to])}`);
      } else next.push(row);
    }
    // A cycle among the rows themselves: the rest as they are (the insert then names the row it cannot place).
    if (next.length === left.length) return [...out, ...next];
    left = next;
  }
  return out;
}

async function insertRows(client: pg.PoolClient, table: Table, rows: readonly Record<string, unknown>[]): Promise<void> {
  const perStatement = Math.max(1, Math.floor(maxParameters / table.columns.length));
  const columnList = table.columns.map(quoted).join(', ');
  for (let i = 0; i < rows.length; i += perStatement) {
    const batch = rows.slice(i, i + perStatement);
    const values: unknown[] = [];
    const tuples = batch.map((row) => `(${table.columns.map((c) => (values.push(row[c]), `$${values.length}`)).join(', ')})`);
    await client.query(`insert into ${quoted(table.name)} (${columnList}) values ${tuples.join(', ')}`, values);
  }
}

/** How many rows are read from SQLite and written to PostgreSQL at a time (tables that refer to themselves are read whole). */
const chunkRows = 5_000;

/**
 * Copy `file` (a SQLite database of `set`) into `schema`, which must be
 * migrated to the same version and hold no copied rows yet. Every table's
 * count on both sides is returned; `progress` is told of rows as they go.
 */
export async function copySqliteIntoSchema(
  file: string,
  set: MigrationSet,
  pool: pg.Pool,
  schema: string,
  progress: (rows: number) => void = () => {},
): Promise<TableCopy[]> {
  const source = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const version = source.pragma('user_version', { simple: true }) as number;
    const latest = migrationsOf(set).length;
    if (version !== latest) throw new Error(`${file} is at schema version ${version}, not ${latest}: open it once with this acct to migrate it first`);
    const tables = inOrder(tablesOf(source));
    const client = await lend(pool);
    try {
      await client.query('begin');
      await client.query(`set local search_path to ${quoted(schema)}`);
      const books = set === 'org';
      if (books) for (const t of deriving) await client.query(`alter table ${quoted(t)} disable trigger user`);
      for (const table of tables) {
        if (derived.has(table.name)) continue;
        await client.query(`delete from ${quoted(table.name)}`);
        const select = source.prepare(`select * from ${quoted(table.name)} order by rowid`);
        if (table.selfReferences.length > 0) {
          const rows = parentsFirst(select.all() as Record<string, unknown>[], table.selfReferences);
          await insertRows(client, table, rows);
          progress(rows.length);
          continue;
        }
        let chunk: Record<string, unknown>[] = [];
        for (const row of select.iterate() as IterableIterator<Record<string, unknown>>) {
          chunk.push(row);
          if (chunk.length === chunkRows) {
            await insertRows(client, table, chunk);
            progress(chunk.length);
            chunk = [];
          }
        }
        await insertRows(client, table, chunk);
        progress(chunk.length);
      }
      if (books) {
        await client.query(derive);
        for (const t of deriving) await client.query(`alter table ${quoted(t)} enable trigger user`);
      }
      // Identity columns count on from the highest id copied (SQLite's INTEGER PRIMARY KEY gave them), or past
      // the highest ever given where SQLite kept that (AUTOINCREMENT: users, whose deleted ids are not given again).
      const given = new Map(
        source.prepare("select name from sqlite_master where name = 'sqlite_sequence'").get() === undefined
          ? []
          : (source.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[]).map((r) => [r.name, r.seq]),
      );
      const identities = await client.query<{ table_name: string; column_name: string }>(
        `select table_name, column_name from information_schema.columns where table_schema = $1 and is_identity = 'YES'`,
        [schema],
      );
      for (const { table_name: t, column_name: c } of identities.rows) {
        await client.query(
          `select setval(pg_get_serial_sequence($1, $2), greatest(coalesce((select max(${quoted(c)}) from ${quoted(t)}), 0), $3::bigint) + 1, false)`,
          [`${quoted(schema)}.${quoted(t)}`, c, given.get(t) ?? 0],
        );
      }
      const counts: TableCopy[] = [];
      for (const table of tables) {
        const { n } = source.prepare(`select count(*) as n from ${quoted(table.name)}`).get() as { n: number };
        const { rows } = await client.query<{ n: number }>(`select count(*) as n from ${quoted(table.name)}`);
        counts.push({ table: table.name, source: n, target: Number(rows[0]?.n ?? 0) });
      }
      await client.query('commit');
      return counts;
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  } finally {
    source.close();
  }
}

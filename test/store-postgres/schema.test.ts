/**
 * Both migration sets make the same schema in both dialects: SQLite runs the
 * shared files, PostgreSQL runs them through postgresOf or, where one is
 * written, the NNNN_name.pg.sql beside them. Each set is applied to a SQLite
 * database and to a fresh PostgreSQL schema, and every table is compared:
 * columns in order (name, NOT NULL, type class, default, numbered by the
 * database), primary key, unique constraints by their columns (the two name
 * their indexes themselves), the other indexes by name, foreign keys, how
 * many CHECK constraints, and trigger names. Then the triggers, written twice,
 * are run on both by plain SQL, with the same statements and the same
 * results: account_days, row_counts, ledger_totals and the audit log.
 *
 * The PostgreSQL part needs a server (CI sets the variable):
 *   ACCT_TEST_DATABASE_URL=postgres://acct@127.0.0.1:55432/postgres npx tap test/store-postgres/schema.test.ts
 */
import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import t from 'tap';
import type { Test } from 'tap';
import { migrationsOf } from '../../src/store/migrate.js';
import type { MigrationSet, SqlDialect } from '../../src/store/migrate.js';

const url = process.env.ACCT_TEST_DATABASE_URL;
const noPostgres = url ? false : 'no PostgreSQL: set ACCT_TEST_DATABASE_URL (e.g. postgres://acct@127.0.0.1:55432/postgres) to run this part; CI sets it';
const skipFor = (dialect: SqlDialect) => (dialect === 'postgres' ? noPostgres : false);
const sets: readonly MigrationSet[] = ['org', 'platform'];
const dialects: readonly SqlDialect[] = ['sqlite', 'postgres'];

interface Column {
  name: string;
  notNull: boolean;
  type: string;
  /** The default's text, casts dropped ('trial'::text is 'trial'); null when none. */
  default: string | null;
  /** SQLite's INTEGER PRIMARY KEY (the rowid), PostgreSQL's identity column. */
  numbered: boolean;
}
interface Index {
  name: string;
  unique: boolean;
  columns: string[];
  partial: boolean;
}
interface ForeignKey {
  columns: string[];
  table: string;
  references: string[];
  onDelete: string;
  onUpdate: string;
}
interface Table {
  columns: Column[];
  primaryKey: string[];
  /** UNIQUE constraints (in the column or the table), by their columns. */
  unique: string[][];
  /** CREATE INDEX and CREATE UNIQUE INDEX. */
  indexes: Index[];
  foreignKeys: ForeignKey[];
  checks: number;
  triggers: string[];
}
type Schema = Record<string, Table>;

/**
 * A declared type's class. PostgreSQL's 32-bit integer and 4-byte real are
 * classes of their own: postgresOf maps INTEGER to BIGINT and REAL to DOUBLE
 * PRECISION on purpose (pence past £21m overflow an int4), so a .pg.sql
 * that writes INTEGER differs.
 */
function typeClass(dialect: SqlDialect, declared: string): string {
  const type = declared.toLowerCase();
  const classes: Record<SqlDialect, Record<string, string>> = {
    sqlite: { integer: 'integer', bigint: 'integer', text: 'text', real: 'real', blob: 'blob' },
    postgres: { bigint: 'integer', integer: 'integer (32 bits)', text: 'text', 'double precision': 'real', real: 'real (4 bytes)', bytea: 'blob' },
  };
  return classes[dialect][type] ?? `${dialect} ${type}`;
}

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** CHECK clauses in a CREATE TABLE statement (ALTER TABLE … ADD COLUMN rewrites it), comments and strings aside. */
const checksIn = (sql: string): number =>
  sql
    .replace(/--[^\n]*/g, '')
    .replace(/'(?:[^']|'')*'/g, "''")
    .match(/\bCHECK\s*\(/gi)?.length ?? 0;

function sqliteSchema(db: Database.Database): Schema {
  const schema: Schema = {};
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
    name: string;
    sql: string;
  }[];
  for (const { name, sql } of tables) {
    const cols = db.pragma(`table_xinfo(${JSON.stringify(name)})`) as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[];
    const primaryKey = cols
      .filter((c) => c.pk > 0)
      .sort(byKey((c) => String(c.pk).padStart(3, '0')))
      .map((c) => c.name);
    const rowid = primaryKey.length === 1 && cols.find((c) => c.pk > 0)?.type.toUpperCase() === 'INTEGER';
    const columnsOf = (index: string) =>
      (db.pragma(`index_info(${JSON.stringify(index)})`) as { seqno: number; name: string | null }[])
        .sort(byKey((c) => String(c.seqno).padStart(3, '0')))
        .map((c) => c.name ?? '(expression)');
    const indexList = db.pragma(`index_list(${JSON.stringify(name)})`) as { name: string; unique: number; origin: string; partial: number }[];
    const fks = db.pragma(`foreign_key_list(${JSON.stringify(name)})`) as {
      id: number;
      seq: number;
      table: string;
      from: string;
      to: string | null;
      on_update: string;
      on_delete: string;
    }[];
    const foreignKeys = [...new Set(fks.map((f) => f.id))].map((id) => {
      const parts = fks.filter((f) => f.id === id).sort((a, b) => a.seq - b.seq);
      const first = parts[0]!;
      return {
        columns: parts.map((f) => f.from),
        table: first.table,
        references: parts.map((f) => f.to ?? '(primary key)'),
        onDelete: first.on_delete,
        onUpdate: first.on_update,
      };
    });
    schema[name] = {
      columns: cols.map((c) => ({
        name: c.name,
        // PostgreSQL's primary key columns are NOT NULL; SQLite's accept NULL unless declared so (a
        // legacy quirk, INTEGER PRIMARY KEY aside), which nothing relies on.
        notNull: c.notnull === 1 || c.pk > 0,
        type: typeClass('sqlite', c.type),
        default: c.dflt_value,
        numbered: rowid && c.pk > 0,
      })),
      primaryKey,
      unique: indexList
        .filter((i) => i.origin === 'u')
        .map((i) => columnsOf(i.name))
        .sort(byKey((c) => c.join())),
      indexes: indexList
        .filter((i) => i.origin === 'c')
        .map((i) => ({ name: i.name, unique: i.unique === 1, columns: columnsOf(i.name), partial: i.partial === 1 }))
        .sort(byKey((i) => i.name)),
      foreignKeys: foreignKeys.sort(byKey((f) => f.columns.join())),
      checks: checksIn(sql),
      triggers: (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?").all(name) as { name: string }[])
        .map((r) => r.name)
        .sort(),
    };
  }
  return schema;
}

const actions: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

async function postgresSchema(client: pg.Client, namespace: string): Promise<Schema> {
  const rows = async <T>(sql: string): Promise<T[]> => (await client.query(sql, [namespace])).rows as T[];
  // The names of an attribute-number array's columns, in order.
  const names = (relid: string, attnums: string) => `ARRAY(
    SELECT COALESCE(a.attname::text, '(expression)') FROM unnest(${attnums}) WITH ORDINALITY AS k (attnum, n)
    LEFT JOIN pg_attribute a ON a.attrelid = ${relid} AND a.attnum = k.attnum ORDER BY k.n)`;
  const tables = await rows<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const columns = await rows<{
    table_name: string;
    column_name: string;
    is_nullable: string;
    data_type: string;
    column_default: string | null;
    is_identity: string;
  }>(
    'SELECT table_name, column_name, is_nullable, data_type, column_default, is_identity FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position',
  );
  const constraints = await rows<{
    table_name: string;
    contype: string;
    columns: string[];
    ref_table: string | null;
    references: string[];
    del: string;
    upd: string;
  }>(
    `SELECT t.relname AS table_name, c.contype, ${names('c.conrelid', 'c.conkey')} AS columns,
       CASE WHEN c.contype = 'f' THEN CASE WHEN rn.nspname = $1 THEN r.relname ELSE rn.nspname || '.' || r.relname END END AS ref_table,
       ${names('c.confrelid', 'c.confkey')} AS references, c.confdeltype AS del, c.confupdtype AS upd
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     LEFT JOIN pg_class r ON r.oid = c.confrelid LEFT JOIN pg_namespace rn ON rn.oid = r.relnamespace
     WHERE n.nspname = $1`,
  );
  // Indexes that no primary key or UNIQUE constraint made.
  const indexes = await rows<{ table_name: string; name: string; unique: boolean; partial: boolean; columns: string[] }>(
    `SELECT t.relname AS table_name, i.relname AS name, x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
       ${names('x.indrelid', 'x.indkey::int2[]')} AS columns
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = $1
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.conrelid = x.indrelid AND c.contype IN ('p', 'u', 'x'))`,
  );
  const triggers = await rows<{ table_name: string; name: string }>(
    `SELECT t.relname AS table_name, g.tgname AS name
     FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = $1 AND NOT g.tgisinternal`,
  );
  const schema: Schema = {};
  for (const { table_name: name } of tables) {
    const of = <T extends { table_name: string }>(list: T[]) => list.filter((r) => r.table_name === name);
    const mine = of(constraints);
    schema[name] = {
      columns: of(columns).map((c) => ({
        name: c.column_name,
        notNull: c.is_nullable === 'NO',
        type: typeClass('postgres', c.data_type),
        default: c.column_default?.replace(/::[a-z ]+$/, '') ?? null,
        numbered: c.is_identity === 'YES',
      })),
      primaryKey: mine.find((c) => c.contype === 'p')?.columns ?? [],
      unique: mine
        .filter((c) => c.contype === 'u')
        .map((c) => c.columns)
        .sort(byKey((c) => c.join())),
      indexes: of(indexes)
        .map((i) => ({ name: i.name, unique: i.unique, columns: i.columns, partial: i.partial }))
        .sort(byKey((i) => i.name)),
      foreignKeys: mine
        .filter((c) => c.contype === 'f')
        .map((c) => ({
          columns: c.columns,
          table: c.ref_table ?? '',
          references: c.references,
          onDelete: actions[c.del] ?? c.del,
          onUpdate: actions[c.upd] ?? c.upd,
        }))
        .sort(byKey((f) => f.columns.join())),
      checks: mine.filter((c) => c.contype === 'c').length,
      triggers: of(triggers)
        .map((g) => g.name)
        .sort(),
    };
  }
  return schema;
}

/** The statements both dialects run alike: a query's rows, and the message a refused statement gives. */
interface Books {
  run(sql: string): Promise<void>;
  all(sql: string): Promise<unknown[]>;
  refusal(sql: string): Promise<string>;
  /** Migrations from (after) version `from` to version `to` of the set. */
  migrate(from: number, to?: number): Promise<void>;
}

function sqliteBooks(t: Test, set: MigrationSet): Books {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  // As the store opens a database.
  db.pragma('foreign_keys = ON');
  return {
    run: async (sql) => void db.exec(sql),
    all: async (sql) => db.prepare(sql).all(),
    refusal: async (sql) => {
      try {
        db.exec(sql);
      } catch (e) {
        return (e as Error).message;
      }
      return '(not refused)';
    },
    migrate: async (from, to = Infinity) => {
      for (const m of migrationsOf(set, 'sqlite').filter((m) => m.version > from && m.version <= to)) db.exec(m.sql);
    },
  };
}

/** A fresh schema of its own (dropped at the end), the connection's search_path set to it. */
async function postgresBooks(t: Test, set: MigrationSet): Promise<Books & { client: pg.Client; namespace: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const namespace = `schema_test_${crypto.randomBytes(6).toString('hex')}`;
  t.teardown(async () => {
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${namespace} CASCADE`);
    } finally {
      await client.end();
    }
  });
  await client.query(`CREATE SCHEMA ${namespace}`);
  await client.query(`SET search_path TO ${namespace}`);
  return {
    client,
    namespace,
    run: async (sql) => void (await client.query(sql)),
    all: async (sql) => (await client.query(sql)).rows,
    refusal: async (sql) => {
      try {
        await client.query(sql);
      } catch (e) {
        return (e as Error).message;
      }
      return '(not refused)';
    },
    migrate: async (from, to = Infinity) => {
      for (const m of migrationsOf(set, 'postgres').filter((m) => m.version > from && m.version <= to)) {
        try {
          await client.query(m.sql);
        } catch (e) {
          throw new Error(`migrations/${set}/${m.name} on PostgreSQL: ${(e as Error).message}`);
        }
      }
    },
  };
}

const booksOf = async (t: Test, dialect: SqlDialect, set: MigrationSet): Promise<Books> => (dialect === 'sqlite' ? sqliteBooks(t, set) : postgresBooks(t, set));

for (const set of sets) {
  t.test(`${set}: PostgreSQL's schema is SQLite's`, { skip: noPostgres }, async (t) => {
    const db = new Database(':memory:');
    t.teardown(() => db.close());
    for (const m of migrationsOf(set, 'sqlite')) db.exec(m.sql);
    const expected = sqliteSchema(db);
    const books = await postgresBooks(t, set);
    await books.migrate(0);
    const actual = await postgresSchema(books.client, books.namespace);

    t.ok(Object.keys(expected).length > 0, 'SQLite has tables');
    t.same(Object.keys(actual).sort(), Object.keys(expected).sort(), 'the same tables');
    for (const name of Object.keys(expected)) {
      if (actual[name]) t.same(actual[name], expected[name], `table ${name}`);
    }
  });
}

const stamp = "'2026-01-05T00:00:00.000Z'";
const transaction = (id: string, status: 'posted' | 'draft', totalDebit: number, date = '2026-01-05') =>
  `INSERT INTO transactions (id, date, description, source_type, status, created_by, created_by_name, total_debit, account_codes, created_at, updated_at)
   VALUES ('${id}', '${date}', 'Test', 'manual', '${status}', 'cli', 'test', ${totalDebit}, '1200,4000', ${stamp}, ${stamp})`;
// Two lines of one transaction: the bank debited (positive) and sales credited (negative).
const lines = (transactionId: string, amount: number, posted: 0 | 1, date = '2026-01-05') =>
  `INSERT INTO lines (id, transaction_id, line_no, account_id, amount, date, posted) VALUES
   ('${transactionId}_1', '${transactionId}', 1, 'acc_bank', ${amount}, '${date}', ${posted}),
   ('${transactionId}_2', '${transactionId}', 2, 'acc_sales', ${-amount}, '${date}', ${posted})`;
const accounts = `INSERT INTO accounts (id, code, name, account_type, is_control_account, control_type, created_at, updated_at) VALUES
  ('acc_bank', '1200', 'Bank Account', 'asset', 1, 'bank', ${stamp}, ${stamp}),
  ('acc_sales', '4000', 'Sales', 'revenue', 0, NULL, ${stamp}, ${stamp})`;
const days = 'SELECT account_id, date, CAST(debit AS INTEGER) AS debit, CAST(credit AS INTEGER) AS credit FROM account_days ORDER BY account_id, date';
const day = (account_id: string, date: string, debit: number, credit: number) => ({ account_id, date, debit, credit });
const counted = "SELECT CAST(n AS INTEGER) AS n FROM row_counts WHERE table_name = 'transactions'";
const totalDebit = 'SELECT CAST(total_debit AS INTEGER) AS total FROM ledger_totals WHERE id = 1';

for (const dialect of dialects) {
  t.test(`${dialect}: posted lines are summed into account_days`, { skip: skipFor(dialect) }, async (t) => {
    const books = await booksOf(t, dialect, 'org');
    await books.migrate(0);
    await books.run(accounts);

    await books.run(transaction('txn_1', 'posted', 12_000));
    await books.run(lines('txn_1', 12_000, 1));
    t.same(await books.all(days), [day('acc_bank', '2026-01-05', 12_000, 0), day('acc_sales', '2026-01-05', 0, 12_000)], 'a posted line adds to its day');

    await books.run(transaction('txn_2', 'posted', 3_000));
    await books.run(lines('txn_2', 3_000, 1));
    // 12,000p + 3,000p = 15,000p on each side.
    t.same(await books.all(days), [day('acc_bank', '2026-01-05', 15_000, 0), day('acc_sales', '2026-01-05', 0, 15_000)], 'the same day: added to');

    await books.run(transaction('txn_3', 'draft', 500));
    await books.run(lines('txn_3', 500, 0));
    t.same(await books.all(days), [day('acc_bank', '2026-01-05', 15_000, 0), day('acc_sales', '2026-01-05', 0, 15_000)], 'draft lines count for nothing');

    await books.run("UPDATE lines SET posted = 1 WHERE transaction_id = 'txn_3'");
    // 15,000p + 500p = 15,500p.
    t.same(await books.all(days), [day('acc_bank', '2026-01-05', 15_500, 0), day('acc_sales', '2026-01-05', 0, 15_500)], 'posting a draft adds it');

    await books.run("UPDATE lines SET date = '2026-01-06' WHERE transaction_id = 'txn_2'");
    // The 5th: 15,500p − 3,000p = 12,500p; the 6th: 3,000p.
    t.same(
      await books.all(days),
      [
        day('acc_bank', '2026-01-05', 12_500, 0),
        day('acc_bank', '2026-01-06', 3_000, 0),
        day('acc_sales', '2026-01-05', 0, 12_500),
        day('acc_sales', '2026-01-06', 0, 3_000),
      ],
      'a line moved to another day moves its amount',
    );

    await books.run("UPDATE lines SET amount = 2000 WHERE id = 'txn_2_1'");
    await books.run("UPDATE lines SET amount = -2000 WHERE id = 'txn_2_2'");
    // The 6th: 3,000p − 3,000p + 2,000p = 2,000p.
    t.same(
      await books.all(days),
      [
        day('acc_bank', '2026-01-05', 12_500, 0),
        day('acc_bank', '2026-01-06', 2_000, 0),
        day('acc_sales', '2026-01-05', 0, 12_500),
        day('acc_sales', '2026-01-06', 0, 2_000),
      ],
      'a changed amount replaces the old',
    );

    await books.run("DELETE FROM transactions WHERE id = 'txn_1'");
    // Its lines go with it (ON DELETE CASCADE): the 5th, 12,500p − 12,000p = 500p.
    t.same(
      await books.all(days),
      [
        day('acc_bank', '2026-01-05', 500, 0),
        day('acc_bank', '2026-01-06', 2_000, 0),
        day('acc_sales', '2026-01-05', 0, 500),
        day('acc_sales', '2026-01-06', 0, 2_000),
      ],
      'deleted lines are taken out',
    );

    await books.run("DELETE FROM transactions WHERE id = 'txn_3'");
    // The 5th: 500p − 500p = 0p, and the row stays.
    t.same(
      await books.all(days),
      [
        day('acc_bank', '2026-01-05', 0, 0),
        day('acc_bank', '2026-01-06', 2_000, 0),
        day('acc_sales', '2026-01-05', 0, 0),
        day('acc_sales', '2026-01-06', 0, 2_000),
      ],
      'a day whose lines all left keeps a row of zeros',
    );
  });

  t.test(`${dialect}: transactions are counted in row_counts and summed in ledger_totals`, { skip: skipFor(dialect) }, async (t) => {
    const books = await booksOf(t, dialect, 'org');
    await books.migrate(0);
    t.same(await books.all(counted), [{ n: 0 }], 'new books: no transactions');
    t.same(await books.all(totalDebit), [{ total: 0 }], 'new books: no debits');

    await books.run(transaction('txn_1', 'posted', 12_345));
    await books.run(transaction('txn_2', 'draft', 655));
    t.same(await books.all(counted), [{ n: 2 }], 'two inserted');
    // 12,345p posted + 655p in a draft = 13,000p.
    t.same(await books.all(totalDebit), [{ total: 13_000 }], 'drafts count too');

    await books.run("UPDATE transactions SET total_debit = 155 WHERE id = 'txn_2'");
    // 13,000p − 655p + 155p = 12,500p.
    t.same(await books.all(totalDebit), [{ total: 12_500 }], 'a changed total moves it');
    await books.run("UPDATE transactions SET description = 'Renamed' WHERE id = 'txn_2'");
    t.same(await books.all(totalDebit), [{ total: 12_500 }], 'other changes leave it');

    await books.run("DELETE FROM transactions WHERE id = 'txn_1'");
    t.same(await books.all(counted), [{ n: 1 }], 'one deleted: 2 − 1');
    // 12,500p − 12,345p = 155p.
    t.same(await books.all(totalDebit), [{ total: 155 }], 'a deletion takes its debits out');
  });

  t.test(`${dialect}: the audit log refuses UPDATE and DELETE`, { skip: skipFor(dialect) }, async (t) => {
    const books = await booksOf(t, dialect, 'platform');
    await books.migrate(0);
    await books.run(
      `INSERT INTO audit_log (admin_id, admin_email, action, entity_type, entity_id, details, created_at)
       VALUES (1, 'root@example.com', 'USER_UNLOCKED', 'user', '7', '{}', ${stamp})`,
    );
    const log = 'SELECT CAST(id AS INTEGER) AS id, admin_email, action FROM audit_log';
    t.same(await books.all(log), [{ id: 1, admin_email: 'root@example.com', action: 'USER_UNLOCKED' }], 'numbered from 1');
    t.equal(await books.refusal("UPDATE audit_log SET admin_email = 'someone@else.test'"), 'audit_log is append-only: rows cannot be updated');
    t.equal(await books.refusal('DELETE FROM audit_log'), 'audit_log is append-only: rows cannot be deleted');
    t.same(await books.all(log), [{ id: 1, admin_email: 'root@example.com', action: 'USER_UNLOCKED' }], 'the row is as it was');
    t.equal(await books.refusal("UPDATE audit_log SET action = 'X' WHERE id = 2"), '(not refused)', 'a statement that touches no row is not refused');
  });

  // Books made before the migrations that carry data over: backfills, the cost-of-sales flag, the
  // two VAT accounts, the primary bank account and the rebuilt (on PostgreSQL, altered) document_items.
  t.test(`${dialect}: books made at 0004 carry their data through the later migrations`, { skip: skipFor(dialect) }, async (t) => {
    const books = await booksOf(t, dialect, 'org');
    await books.migrate(0, 4);
    await books.run(
      `INSERT INTO organisation (id, name, business_type, country, currency, vat_scheme, fiscal_year_start, invoice_prefix, invoice_next_number,
         quote_prefix, quote_next_number, default_payment_terms, quote_validity_days, created_at, updated_at)
       VALUES ('org_1', 'Test Ltd', 'limited_company', 'GB', 'GBP', 'standard', '04-06', 'INV-', 1, 'QUO-', 1, 30, 30, ${stamp}, ${stamp})`,
    );
    await books.run(accounts);
    await books.run(`INSERT INTO accounts (id, code, name, account_type, created_at, updated_at) VALUES
      ('acc_5000', '5000', 'Cost of sales', 'expense', ${stamp}, ${stamp}),
      ('acc_5099', '5099', 'Other direct costs', 'expense', ${stamp}, ${stamp}),
      ('acc_501', '501', 'User account', 'expense', ${stamp}, ${stamp}),
      ('acc_50500', '50500', 'Five digits', 'expense', ${stamp}, ${stamp}),
      ('acc_500A', '500A', 'Not digits', 'expense', ${stamp}, ${stamp}),
      ('acc_5060', '5060', 'Revenue coded as costs', 'revenue', ${stamp}, ${stamp})`);
    await books.run(transaction('txn_1', 'posted', 12_000));
    await books.run(lines('txn_1', 12_000, 1));
    await books.run(transaction('txn_2', 'posted', 3_000));
    await books.run(lines('txn_2', 3_000, 1));
    await books.run(transaction('txn_3', 'draft', 500));
    await books.run(lines('txn_3', 500, 0));
    await books.run(
      `INSERT INTO document_items (id, document_id, position, description, quantity, unit_price, vat_rate_name, vat_rate, net, vat_amount, line_total, account_id)
       VALUES ('line_1', 'inv_1', 1, 'Consulting', 1.5, 50000, 'standard', 20, 75000, 15000, 90000, 'acc_sales')`,
    );

    await books.migrate(4);
    // Posted lines only: 12,000p + 3,000p = 15,000p each side; the draft's 500p is not there.
    t.same(await books.all(days), [day('acc_bank', '2026-01-05', 15_000, 0), day('acc_sales', '2026-01-05', 0, 15_000)], 'account_days backfilled');
    t.same(await books.all(counted), [{ n: 3 }], 'row_counts backfilled');
    // 12,000p + 3,000p + 500p (the draft) = 15,500p.
    t.same(await books.all(totalDebit), [{ total: 15_500 }], 'ledger_totals backfilled');
    t.same(
      await books.all('SELECT code FROM accounts WHERE is_cost_of_sales = 1 ORDER BY code'),
      [{ code: '5000' }, { code: '5099' }],
      'expense accounts coded 5000 to 5099 are cost of sales',
    );
    const added = (await books.all("SELECT id, code, created_at, updated_at FROM accounts WHERE code IN ('2202', '4300') ORDER BY code")) as {
      id: string;
      code: string;
      created_at: string;
      updated_at: string;
    }[];
    t.same(
      added.map((a) => a.code),
      ['2202', '4300'],
      'the two accounts filing needs',
    );
    for (const a of added) {
      t.match(a.id, /^acc_[0-9a-f]{26}$/, `${a.code}: an id of 26 hex digits`);
      t.match(a.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, `${a.code}: a time to the millisecond, in UTC`);
      t.equal(a.updated_at, a.created_at);
    }
    t.same(
      await books.all('SELECT CAST(id AS INTEGER) AS id, account_id, account_name, CAST(is_primary AS INTEGER) AS is_primary FROM bank_accounts'),
      [{ id: 1, account_id: 'acc_bank', account_name: 'Bank Account', is_primary: 1 }],
      '1200 is the primary bank account',
    );
    t.same(
      await books.all('SELECT id, quantity, vat_rate_name, CAST(line_total AS INTEGER) AS line_total, source_item_id FROM document_items'),
      [{ id: 'line_1', quantity: 1.5, vat_rate_name: 'standard', line_total: 90_000, source_item_id: null }],
      'document_items kept',
    );
    const item = (id: string, name: string) =>
      `INSERT INTO document_items (id, document_id, position, description, quantity, unit_price, vat_rate_name, vat_rate, net, vat_amount, line_total)
       VALUES ('${id}', 'inv_2', 1, 'Design', 1, 100, ${name}, 0, 100, 0, 100)`;
    t.equal(await books.refusal(item('line_2', 'NULL')), '(not refused)', 'a line may have no VAT rate');
    t.match(await books.refusal(item('line_3', "'none'")), /check constraint/i, 'an unknown rate name is refused');
  });
}

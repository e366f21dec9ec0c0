/** The only place that knows the databases are SQLite files (with migrate.ts and driver-errors.ts). */
import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDatabase as SqliteDialectDatabase, type SqliteStatement } from 'kysely';
import { createPrivateFile, restrictFile, withJournals } from './file-modes.js';
import { migrate, type MigrationSet } from './migrate.js';
import type { SecretBox } from './secret-box.js';

export type SqliteDatabase = Database.Database;

/**
 * Open a database file with the pragmas that let the CLI and a running
 * server share it: WAL, synchronous=FULL (an accepted write survives power
 * loss), foreign keys, and a busy timeout. Pending migrations are applied.
 */
export function openSqlite(file: string, migrations: MigrationSet, options: { create: boolean }): SqliteDatabase {
  if (options.create) createPrivateFile(file);
  for (const f of withJournals(file)) restrictFile(f);
  const db = new Database(file, { fileMustExist: !options.create });
  try {
    db.pragma('busy_timeout = 10000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // fold(text): text compared without case in every script (SQLite's own lower() and LIKE fold A-Z only).
    // PostgreSQL gets the same function as lower(normalize(text, NFC)).
    db.function('fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.normalize('NFC').toLocaleLowerCase('en-GB') : text));
    migrate(db, migrations);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** A kysely handle over one SQLite database, with IMMEDIATE write transactions committed in groups. */
export interface DbHandle<DB> {
  readonly db: Kysely<DB>;
  /**
   * Run `work` atomically and durably: it has happened, all of it, when
   * the promise resolves, and none of it when it rejects. Writes that
   * arrive together share one transaction (group commit), each in its own
   * savepoint, so that one fsync acknowledges them all; a refused write
   * rolls back to its savepoint and leaves the others be. The transaction
   * begins IMMEDIATE so that a reader that later writes cannot fail at once
   * with SQLITE_BUSY while another process holds the write lock; the busy
   * timeout applies instead.
   */
  write<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  /** Seals and opens the secrets kept in this database, with the data directory's key. */
  readonly secrets: SecretBox;
  /**
   * A stamp that differs from the one taken before whenever the database may
   * have changed in between: a commit by any other connection, of this
   * process or another (PRAGMA data_version), or a change made through this
   * one, committed or not (total_changes()). What is cached from the
   * database stays valid while the stamp does.
   */
  changeStamp(): string;
  close(): Promise<void>;
}

/**
 * Marks the code running inside a write transaction (and whatever it
 * awaits), so that a call to another service made there can be refused:
 * it would hold the books' write lock for as long as that service takes.
 */
const writing = new AsyncLocalStorage<true>();

/** Whether the calling code runs inside a write transaction of any handle. */
export function insideWriteTransaction(): boolean {
  return writing.getStore() === true;
}

interface QueuedWrite<DB> {
  work(trx: Kysely<DB>): Promise<unknown>;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/** The most writes one transaction holds: a bound on how long the first of them waits for its commit. */
const groupLimit = 64;

/**
 * A statement as kysely runs it, with its rows made here from better-sqlite3's
 * raw arrays: better-sqlite3 builds each row object a column at a time
 * through V8's API, which for a page of wide rows costs as much as reading
 * them. Objects built in the same order of columns share one shape, as the
 * driver's do; a repeated column name keeps its last value, as there.
 */
class RowStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: Database.Statement;
  readonly #columns: readonly string[];

  constructor(statement: Database.Statement) {
    this.#statement = statement;
    this.reader = statement.reader;
    this.#columns = statement.reader ? statement.columns().map((c) => c.name) : [];
    if (statement.reader) statement.raw(true);
  }

  get busy(): boolean {
    return this.#statement.busy;
  }

  #row(values: readonly unknown[]): Record<string, unknown> {
    const columns = this.#columns;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
    return row;
  }

  all(parameters: readonly unknown[]): unknown[] {
    if (!this.reader) return this.#statement.all(parameters);
    const rows = this.#statement.all(parameters) as unknown[][];
    const out = new Array<Record<string, unknown>>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = this.#row(rows[i]!);
    return out;
  }

  run(parameters: readonly unknown[]): Database.RunResult {
    return this.#statement.run(parameters);
  }

  *iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    for (const values of this.#statement.iterate(parameters) as IterableIterator<unknown[]>) yield this.#row(values);
  }
}

/**
 * The database as kysely sees it, with prepared statements kept by their
 * SQL: kysely prepares every query it runs, and preparing costs more than
 * running most of them. A statement still being iterated (a streamed query)
 * is busy, so a query with the same SQL meanwhile gets one of its own.
 */
function withStatementCache(database: SqliteDatabase, limit = 1000): SqliteDialectDatabase {
  const cache = new Map<string, RowStatement>();
  return {
    prepare(text: string) {
      const kept = cache.get(text);
      if (kept && !kept.busy) return kept;
      const fresh = new RowStatement(database.prepare(text));
      if (!kept) {
        if (cache.size >= limit) cache.clear();
        cache.set(text, fresh);
      }
      return fresh;
    },
    close: () => database.close(),
  };
}

export function handleFor<DB>(database: SqliteDatabase, secrets: SecretBox): DbHandle<DB> {
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  const queue: QueuedWrite<DB>[] = [];
  let running = false;
  let stampQuery: Database.Statement<[], [number, number]> | undefined;

  /** One transaction over the writes queued by now and those that join it, up to groupLimit. */
  const commitGroup = async (conn: Kysely<DB>): Promise<void> => {
    const taken = queue.splice(0, groupLimit);
    const settled: (() => void)[] = [];
    try {
      await sql`begin immediate`.execute(conn);
      for (let i = 0; i < taken.length; i++) {
        const item = taken[i]!;
        await sql`savepoint group_write`.execute(conn);
        try {
          const out = await writing.run(true, () => item.work(conn));
          await sql`release savepoint group_write`.execute(conn);
          settled.push(() => item.resolve(out));
        } catch (e) {
          // Some errors (a full disk, an interrupt) end the whole transaction: the group fails with it.
          if (!database.inTransaction) throw e;
          await sql`rollback to savepoint group_write`.execute(conn);
          await sql`release savepoint group_write`.execute(conn);
          settled.push(() => item.reject(e));
        }
        if (i === taken.length - 1 && taken.length < groupLimit) taken.push(...queue.splice(0, groupLimit - taken.length));
      }
      await sql`commit`.execute(conn);
    } catch (e) {
      if (database.inTransaction) await sql`rollback`.execute(conn);
      for (const item of taken) item.reject(e);
      return;
    }
    for (const settle of settled) settle();
  };

  const drain = async (): Promise<void> => {
    try {
      while (queue.length > 0) await db.connection().execute(commitGroup);
    } catch (e) {
      // Only acquiring the connection can fail here (the handle is closed): fail what waits.
      for (const item of queue.splice(0)) item.reject(e);
    } finally {
      running = false;
    }
  };

  return {
    db,
    write: <T>(work: (trx: Kysely<DB>) => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve, reject });
        if (!running) {
          running = true;
          // Start on the next turn of the event loop, so that writes arriving together go in one transaction.
          setImmediate(() => void drain());
        }
      }),
    secrets,
    changeStamp: () => {
      stampQuery ??= database.prepare<[], [number, number]>('select (select data_version from pragma_data_version), total_changes()').raw(true);
      const [version, changes] = stampQuery.get() as [number, number];
      return `${version}:${changes}`;
    },
    close: () => db.destroy(),
  };
}

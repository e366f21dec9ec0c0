/** The only place that knows the databases are SQLite files (with migrate.ts, driver-errors.ts, suspendable-driver.ts and the cache in store.ts). */
import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql, type Dialect } from 'kysely';
import { createPrivateFile, restrictFile, withJournals } from './file-modes.js';
import { migrate, type MigrationSet } from './migrate.js';
import type { SecretBox } from './secret-box.js';
import { SuspendableDriver } from './suspendable-driver.js';

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

/** A handle whose file a cache may close while it is idle (see SuspendableDriver). */
export interface SuspendableHandle<DB> extends DbHandle<DB> {
  /** The database while its file is open; undefined while suspended. */
  readonly database: SqliteDatabase | undefined;
  /** A query, transaction or write is under way or waiting. */
  readonly inUse: boolean;
  /** Close the file if the handle is idle (true); the next use opens it again. */
  suspend(): boolean;
}

export interface HandleOptions {
  /** Open the file again after suspend(); without it, suspend() does nothing. */
  readonly reopen?: () => SqliteDatabase;
  /** Called when the file has been opened again. */
  readonly onReopen?: () => void;
  /** Called when the handle has nothing more under way. */
  readonly onIdle?: () => void;
}

/** A handle over an open database, which a cache may suspend while idle (see HandleOptions). */
export function handleFor<DB>(database: SqliteDatabase, secrets: SecretBox, options: HandleOptions = {}): SuspendableHandle<DB> {
  const onIdle = options.onIdle ?? (() => {});
  let running = false;
  const driver = new SuspendableDriver(database, options.reopen, options.onReopen ?? (() => {}), () => {
    if (!running) onIdle();
  });
  const dialect: Dialect = {
    createDriver: () => driver,
    createAdapter: () => new SqliteAdapter(),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
  const db = new Kysely<DB>({ dialect });
  const queue: QueuedWrite<DB>[] = [];
  let stampQuery: Database.Statement<[], [number, number]> | undefined;
  let stampDatabase: SqliteDatabase | undefined;

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
          if (!driver.database?.inTransaction) throw e;
          await sql`rollback to savepoint group_write`.execute(conn);
          await sql`release savepoint group_write`.execute(conn);
          settled.push(() => item.reject(e));
        }
        if (i === taken.length - 1 && taken.length < groupLimit) taken.push(...queue.splice(0, groupLimit - taken.length));
      }
      await sql`commit`.execute(conn);
    } catch (e) {
      if (driver.database?.inTransaction) await sql`rollback`.execute(conn);
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
      if (!driver.inUse) onIdle();
    }
  };

  return {
    db,
    get database() {
      return driver.database;
    },
    get inUse() {
      return driver.inUse || running;
    },
    suspend: () => !running && driver.suspend(),
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
      // The stamp reads the open file; a suspended handle opens it again (a query does the same).
      const database = driver.database ?? driver.open();
      if (stampDatabase !== database) {
        stampQuery = database.prepare<[], [number, number]>('select (select data_version from pragma_data_version), total_changes()').raw(true);
        stampDatabase = database;
      }
      const [version, changes] = stampQuery!.get() as [number, number];
      return `${version}:${changes}`;
    },
    close: async () => {
      await db.destroy();
      // kysely destroys only a driver it has initialised: a handle never queried still has its file open.
      await driver.destroy();
    },
  };
}

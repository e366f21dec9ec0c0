/** The only place that knows the databases are SQLite files (with migrate.ts, driver-errors.ts, suspendable-driver.ts and the cache in store.ts). */
import Database from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql, type Dialect } from 'kysely';
import { fold } from './fold.js';
import { createPrivateFile, restrictFile, withJournals } from './file-modes.js';
import { GroupCommit, type DbHandle } from './handle.js';
import { migrate, type MigrationSet } from './migrate.js';
import type { SecretBox } from './secret-box.js';
import { SuspendableDriver } from './suspendable-driver.js';

export type SqliteDatabase = Database.Database;
export type { DbHandle } from './handle.js';

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
    // fold(text): text compared without case in every script (SQLite's own lower() and LIKE fold A-Z only); see fold.ts.
    db.function('fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? fold(text) : text));
    migrate(db, migrations);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

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
  const driver = new SuspendableDriver(database, options.reopen, options.onReopen ?? (() => {}), () => {
    if (!writes.running) onIdle();
  });
  const dialect: Dialect = {
    createDriver: () => driver,
    createAdapter: () => new SqliteAdapter(),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
  const db = new Kysely<DB>({ dialect });
  // BEGIN IMMEDIATE, so that a reader that later writes cannot fail at once with SQLITE_BUSY while another
  // process holds the write lock: the busy timeout applies instead.
  const writes = new GroupCommit<DB>(
    db,
    {
      begin: async (conn) => void (await sql`begin immediate`.execute(conn)),
      stillOpen: () => Promise.resolve(driver.database?.inTransaction === true),
      abort: async (conn) => {
        if (driver.database?.inTransaction) await sql`rollback`.execute(conn);
      },
    },
    () => {
      if (!driver.inUse) onIdle();
    },
  );
  let stampQuery: Database.Statement<[], [number, number]> | undefined;
  let stampDatabase: SqliteDatabase | undefined;

  return {
    db,
    get database() {
      return driver.database;
    },
    get inUse() {
      return driver.inUse || writes.running;
    },
    suspend: () => !writes.running && driver.suspend(),
    write: (work) => writes.write(work),
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

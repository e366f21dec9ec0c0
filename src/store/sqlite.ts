/** The only place that knows the databases are SQLite files (with migrate.ts and driver-errors.ts). */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { migrate, type MigrationSet } from './migrate.js';

export type SqliteDatabase = Database.Database;

/**
 * Open a database file with the pragmas that let the CLI and a running
 * server share it: WAL, synchronous=FULL (an accepted write survives power
 * loss), foreign keys, and a busy timeout. Pending migrations are applied.
 */
export function openSqlite(file: string, migrations: MigrationSet, options: { create: boolean }): SqliteDatabase {
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

/** A kysely handle over one SQLite database, with IMMEDIATE write transactions. */
export interface DbHandle<DB> {
  readonly db: Kysely<DB>;
  /**
   * Run `work` in one write transaction. It begins IMMEDIATE so that a
   * reader that later writes cannot fail at once with SQLITE_BUSY while
   * another process holds the write lock; the busy timeout applies instead.
   */
  write<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function handleFor<DB>(database: SqliteDatabase): DbHandle<DB> {
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
  return {
    db,
    write: (work) =>
      db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const out = await work(conn);
          await sql`commit`.execute(conn);
          return out;
        } catch (e) {
          if (database.inTransaction) await sql`rollback`.execute(conn);
          throw e;
        }
      }),
    close: () => db.destroy(),
  };
}

/**
 * A kysely driver over one SQLite file that a cache may close while it is
 * idle (see store.ts), with prepared statements kept by their SQL.
 */
import type Database from 'better-sqlite3';
import {
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type SqliteDatabase as SqliteDialectDatabase,
  type TransactionSettings,
} from 'kysely';

type SqliteDatabase = Database.Database;

/**
 * The database as kysely sees it, with prepared statements kept by their
 * SQL: kysely prepares every query it runs, and preparing costs more than
 * running most of them. A statement still being iterated (a streamed query)
 * is busy, so a query with the same SQL meanwhile gets one of its own.
 */
function withStatementCache(database: SqliteDatabase, limit = 1000): SqliteDialectDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    prepare(text: string) {
      const kept = cache.get(text);
      if (kept && !kept.busy) return kept;
      const fresh = database.prepare(text);
      if (!kept) {
        if (cache.size >= limit) cache.clear();
        cache.set(text, fresh);
      }
      return fresh;
    },
    close: () => database.close(),
  };
}

/**
 * The kysely driver of one SQLite file that may close the file while
 * nothing uses it and opens it again on the next use, so that a cache can
 * close idle databases under the feet of code still holding their handle.
 * "In use" is a connection handed out or waited for: a query running, a
 * streamed query being read, a transaction open.
 */
export class SuspendableDriver implements Driver {
  #database: SqliteDatabase | undefined;
  #inner: SqliteDriver | undefined;
  #ready: Promise<void> = Promise.resolve();
  #users = 0;
  #destroyed = false;

  constructor(
    database: SqliteDatabase,
    private readonly reopen: (() => SqliteDatabase) | undefined,
    private readonly onReopen: () => void,
    private readonly onRelease: () => void,
  ) {
    this.#attach(database);
  }

  #attach(database: SqliteDatabase): SqliteDriver {
    this.#database = database;
    const inner = new SqliteDriver({ database: withStatementCache(database) });
    this.#inner = inner;
    this.#ready = inner.init();
    return inner;
  }

  /** The open database, opened again if it was suspended. */
  #driver(): SqliteDriver {
    if (this.#inner) return this.#inner;
    if (this.#destroyed || !this.reopen) throw new Error('the database handle is closed');
    const inner = this.#attach(this.reopen());
    this.onReopen();
    return inner;
  }

  get database(): SqliteDatabase | undefined {
    return this.#database;
  }

  get inUse(): boolean {
    return this.#users > 0;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#users++;
    try {
      const inner = this.#driver();
      await this.#ready;
      return await inner.acquireConnection();
    } catch (e) {
      this.#users--;
      throw e;
    }
  }

  async releaseConnection(): Promise<void> {
    try {
      await this.#inner?.releaseConnection();
    } finally {
      this.#users--;
    }
    if (this.#users === 0) this.onRelease();
  }

  #open(): SqliteDriver {
    if (!this.#inner) throw new Error('no connection is open');
    return this.#inner;
  }
  // SQLite has one isolation level: kysely's transaction settings do not apply.
  beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    return this.#open().beginTransaction(connection);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#open().commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#open().rollbackTransaction(connection);
  }
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#open().savepoint(connection, name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#open().rollbackToSavepoint(connection, name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#open().releaseSavepoint(connection, name, compile);
  }

  /** Close the file unless it is in use; the next use opens it again. */
  suspend(): boolean {
    if (this.#users > 0 || !this.#database || !this.reopen) return false;
    this.#database.close();
    this.#database = undefined;
    this.#inner = undefined;
    return true;
  }

  destroy(): Promise<void> {
    this.#destroyed = true;
    this.#database?.close();
    this.#database = undefined;
    this.#inner = undefined;
    return Promise.resolve();
  }
}

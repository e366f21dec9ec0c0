/**
 * A kysely driver over one SQLite file that a cache may close while it is
 * idle (see store.ts), with prepared statements kept by their SQL.
 */
import type Database from 'better-sqlite3';
import {
  SelectQueryNode,
  SqliteDriver,
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
  type Driver,
  type QueryCompiler,
  type SqliteDatabase as SqliteDialectDatabase,
  type SqliteStatement,
  type TransactionSettings,
} from 'kysely';

type SqliteDatabase = Database.Database;

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

  /** The rows in arrays of `size`: one generator step a chunk rather than one a row. */
  *chunks(parameters: readonly unknown[], size: number): IterableIterator<Record<string, unknown>[]> {
    let rows: Record<string, unknown>[] = [];
    for (const values of this.#statement.iterate(parameters) as IterableIterator<unknown[]>) {
      rows.push(this.#row(values));
      if (rows.length >= size) {
        yield rows;
        rows = [];
      }
    }
    if (rows.length > 0) yield rows;
  }
}

/**
 * The database as kysely sees it, with prepared statements kept by their
 * SQL: kysely prepares every query it runs, and preparing costs more than
 * running most of them. A statement still being iterated (a streamed query)
 * is busy, so a query with the same SQL meanwhile gets one of its own.
 */
interface StatementCache extends SqliteDialectDatabase {
  prepare(sql: string): RowStatement;
}

function withStatementCache(database: SqliteDatabase, limit = 1000): StatementCache {
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

/**
 * A connection whose streamed queries come in chunks of the size asked
 * for: kysely's SQLite connection yields each row as a result of its own,
 * an await a row, which for an account's million lines cost more than
 * SQLite's reading and sorting them. Everything else is the inner
 * connection's.
 */
class ChunkedConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly database: StatementCache,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.inner.executeQuery(compiledQuery);
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- kysely's interface is async; SQLite steps its statement synchronously
  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 1): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    for (const rows of this.database.prepare(compiledQuery.sql).chunks(compiledQuery.parameters, Math.max(1, chunkSize))) yield { rows: rows as R[] };
  }
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
  #statements: StatementCache | undefined;
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
    this.#statements = withStatementCache(database);
    const inner = new SqliteDriver({ database: this.#statements });
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

  /** The database, opened again if it was suspended. */
  open(): SqliteDatabase {
    this.#driver();
    return this.#database as SqliteDatabase;
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
      return new ChunkedConnection(await inner.acquireConnection(), this.#statements as StatementCache);
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
    this.#statements = undefined;
    this.#inner = undefined;
    return true;
  }

  destroy(): Promise<void> {
    this.#destroyed = true;
    this.#database?.close();
    this.#database = undefined;
    this.#statements = undefined;
    this.#inner = undefined;
    return Promise.resolve();
  }
}

/**
 * What the engine sees of a database, whichever store holds it: a kysely
 * handle, and write() that commits writes arriving together in one
 * transaction (group commit), each in its own savepoint.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import type { SecretBox } from './secret-box.js';

/** A kysely handle over one set of tables (one SQLite file, or one PostgreSQL schema), with writes committed in groups. */
export interface DbHandle<DB> {
  readonly db: Kysely<DB>;
  /**
   * Run `work` atomically and durably: it has happened, all of it, when
   * the promise resolves, and none of it when it rejects. Writes that
   * arrive together share one transaction (group commit), each in its own
   * savepoint, so that one commit acknowledges them all; a refused write
   * rolls back to its savepoint and leaves the others be. Writes to one
   * set of tables are serialised, across processes too: SQLite's write
   * lock (BEGIN IMMEDIATE), or on PostgreSQL a transaction-scoped advisory
   * lock on the schema.
   */
  write<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  /** Seals and opens the secrets kept in this database, with the data directory's key. */
  readonly secrets: SecretBox;
  /**
   * A stamp that differs from the one taken before whenever the database may
   * have changed in between, by this process or another. What is cached
   * from the database stays valid while the stamp does.
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

/** How a store begins, and recovers within, the transaction of a group. */
export interface GroupTransaction<DB> {
  /** Begin the transaction and take the write lock. */
  begin(conn: Kysely<DB>): Promise<void>;
  /** Whether the transaction is still open after a write failed (some failures end it: a full disk, a lost connection). */
  stillOpen(conn: Kysely<DB>): Promise<boolean>;
  /** Roll the whole transaction back, if it is open. */
  abort(conn: Kysely<DB>): Promise<void>;
}

interface QueuedWrite<DB> {
  work(trx: Kysely<DB>): Promise<unknown>;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/** The most writes one transaction holds: a bound on how long the first of them waits for its commit. */
const groupLimit = 64;

/** The queue behind DbHandle.write(): one connection at a time commits the writes waiting, in groups. */
export class GroupCommit<DB> {
  readonly #db: Kysely<DB>;
  readonly #transaction: GroupTransaction<DB>;
  readonly #onIdle: () => void;
  readonly #queue: QueuedWrite<DB>[] = [];
  #running = false;

  /** `onIdle`: called when the queue has drained. */
  constructor(db: Kysely<DB>, transaction: GroupTransaction<DB>, onIdle: () => void) {
    this.#db = db;
    this.#transaction = transaction;
    this.#onIdle = onIdle;
  }

  /** Writes are queued or being committed. */
  get running(): boolean {
    return this.#running;
  }

  write<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve, reject });
      if (!this.#running) {
        this.#running = true;
        // Start on the next turn of the event loop, so that writes arriving together go in one transaction.
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#db.connection().execute((conn) => this.#commitGroup(conn));
    } catch (e) {
      // Only acquiring the connection can fail here (the handle is closed, the server is gone): fail what waits.
      for (const item of this.#queue.splice(0)) item.reject(e);
    } finally {
      this.#running = false;
      this.#onIdle();
    }
  }

  /** One transaction over the writes queued by now and those that join it, up to groupLimit. */
  async #commitGroup(conn: Kysely<DB>): Promise<void> {
    const queue = this.#queue;
    const taken = queue.splice(0, groupLimit);
    const settled: (() => void)[] = [];
    try {
      await this.#transaction.begin(conn);
      for (let i = 0; i < taken.length; i++) {
        const item = taken[i]!;
        await sql`savepoint group_write`.execute(conn);
        try {
          const out = await writing.run(true, () => item.work(conn));
          await sql`release savepoint group_write`.execute(conn);
          settled.push(() => item.resolve(out));
        } catch (e) {
          if (!(await this.#transaction.stillOpen(conn))) throw e;
          await sql`rollback to savepoint group_write`.execute(conn);
          await sql`release savepoint group_write`.execute(conn);
          settled.push(() => item.reject(e));
        }
        if (i === taken.length - 1 && taken.length < groupLimit) taken.push(...queue.splice(0, groupLimit - taken.length));
      }
      await sql`commit`.execute(conn);
    } catch (e) {
      await this.#transaction.abort(conn).catch(() => {});
      for (const item of taken) item.reject(e);
      return;
    }
    for (const settle of settled) settle();
  }
}

/**
 * The PostgreSQL store: the platform tables in one schema (the URL's
 * `schema` parameter, default `acct`), each organisation and mode in a
 * schema of its own (`acct_<id without dashes>_live`), created and migrated
 * on first use from the same migrations as the SQLite files (see
 * migrate.ts). One pool of connections serves every schema: a connection
 * is pointed at a schema (search_path) as it is taken from the pool.
 *
 * Writes to one schema are serialised by a transaction-scoped advisory lock
 * on the schema's name, the guarantee SQLite's write lock gave the engine
 * (number allocation and posting read and then write): READ COMMITTED
 * inside the lock is then as good as SERIALIZABLE for them, without its
 * retries; readers are never blocked. Work for the background tasks (an
 * event in the outbox, an invoice issued) and platform changes are told
 * by NOTIFY from triggers, so every process hears every commit.
 */
import fs from 'node:fs';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import { AppError } from '../../engine/errors.js';
import { isOrganisationId, modes, type Mode } from '../data-dir.js';
import { makePrivateDir, restrictFile } from '../file-modes.js';
import { GroupCommit, type DbHandle } from '../handle.js';
import { keyFile, secretBoxOf, type SecretBox } from '../secret-box.js';
import type { BooksListener, BooksRef, ChangeReader, PoolStats, Store, StoreOptions, Work } from '../store.js';
import type { OrgDb, PlatformDb } from '../tables.js';
import { ensureSchema, quoted, schemaExists, type SchemaSet } from './schemas.js';
import { copySqliteIntoSchema, type TableCopy } from './copy.js';
import { redactedUrl } from './url.js';
import { guardLentConnections, lend } from './lend.js';
import { recognisePostgresErrors } from '../driver-errors.js';

// pg is loaded only with this store (a postgres:// URL): from here on, its errors are translated too.
recognisePostgresErrors(pg.DatabaseError);

/** The URL's `schema` parameter: the platform's schema, and the start of every organisation's. */
const prefixShape = /^[a-z][a-z0-9_]{0,19}$/;

interface Target {
  readonly connectionString: string;
  readonly prefix: string;
}

function targetOf(url: string): Target {
  const parsed = new URL(url);
  const prefix = parsed.searchParams.get('schema') ?? 'acct';
  if (!prefixShape.test(prefix)) {
    throw new AppError(
      'validation_error',
      `--database: schema must be 1-20 lower-case letters, digits or _, starting with a letter (got ${prefix})`,
      'database',
    );
  }
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), prefix };
}

/** PostgreSQL's 64-bit integers and numerics (counts, sums) as numbers, and booleans as 1 and 0: the values SQLite gives the engine. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number) => {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    if (oid === 16) return (value: string) => (value === 't' ? 1 : 0);
    return pg.types.getTypeParser(oid) as (value: string) => unknown;
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** The channel every store's triggers notify on: the payload is "<schema> <what>". */
export const channel = 'acct';

type Ensure = () => Promise<void>;

/**
 * Connections a process keeps to the database: one pool for every
 * organisation's books, one for the platform. Apart, because a write to an
 * organisation's books holds its connection while it reads the platform
 * (the plan, a setting): with one pool, as many such writes as connections
 * would each wait for a connection that none gives back.
 */
const poolSizes: Record<SchemaSet, number> = { org: 10, platform: 5 };

/** How long a lost LISTEN connection waits before it is opened again; doubled after each failed attempt, up to relistenMaxMs. */
const relistenMs = 1000;
const relistenMaxMs = 30_000;

/** How long close() waits for the queries under way before it closes their connections. */
const closeGraceMs = 5000;

/**
 * A pool as kysely takes it, over the shared pool, whose connections are
 * pointed at one schema as they are handed out; `ensure` runs first (the
 * schema created or migrated, once per process).
 */
function schemaPool(shared: pg.Pool, schema: string, ensure: Ensure, searchPath: WeakMap<pg.PoolClient, string>): PostgresPool {
  return {
    connect: async () => {
      await ensure();
      const client = await lend(shared);
      try {
        if (searchPath.get(client) !== schema) {
          await client.query(`set search_path to ${quoted(schema)}`);
          searchPath.set(client, schema);
        }
      } catch (e) {
        client.release(e as Error);
        throw e;
      }
      return client;
    },
    // The shared pool is the store's to end.
    end: () => Promise.resolve(),
  };
}

export class PostgresStore implements Store {
  readonly kind = 'postgres';
  readonly dataDir: string;
  readonly secrets: SecretBox;
  readonly platform: DbHandle<PlatformDb>;
  readonly #pools: Record<SchemaSet, pg.Pool>;
  /** The connections taken from the pool and not yet given back. */
  readonly #lent = new Set<pg.PoolClient>();
  readonly #prefix: string;
  readonly #url: string;
  readonly #searchPath = new WeakMap<pg.PoolClient, string>();
  readonly #books = new Map<string, DbHandle<OrgDb>>();
  /** The schemas this process has found ready (created and at the latest version). */
  readonly #ready = new Map<string, Promise<void>>();
  readonly #workListeners: Record<Work, Set<BooksListener>> = { webhooks: new Set(), issued: new Set() };
  readonly #openListeners = new Set<BooksListener>();
  readonly #readers = new Set<ChangeReader>();
  readonly #defaultReader: ChangeReader;
  #listener: Promise<pg.Client> | undefined;
  /** The next attempt at the LISTEN connection, when one is due, and the wait before the one after. */
  #relisten: NodeJS.Timeout | undefined;
  #relistenWait = relistenMs;
  /** The platform's stamps given: each is new (see the constructor). */
  #stamps = 0;
  #closed = false;

  private constructor(dataDir: string, url: string, target: Target) {
    this.dataDir = dataDir;
    const poolOf = (set: SchemaSet): pg.Pool => {
      const pool = new pg.Pool({ connectionString: target.connectionString, max: poolSizes[set], types });
      // A connection the server ends while idle in the pool is an error event: the pool drops it; the next query takes another. One lent out: see lend.ts.
      pool.on('error', () => {});
      guardLentConnections(pool);
      pool.on('acquire', (client) => this.#lent.add(client));
      pool.on('release', (_e, client) => this.#lent.delete(client));
      return pool;
    };
    this.#pools = { org: poolOf('org'), platform: poolOf('platform') };
    this.#url = url;
    this.#prefix = target.prefix;
    this.secrets = secretBoxOf(dataDir);
    this.#defaultReader = this.changeReader();
    const handle = this.#handle<PlatformDb>(target.prefix, 'platform', () => this.#ensure(target.prefix, 'platform', true));
    // Another process may change the platform (revoke a key, set maintenance mode) at any moment, and nothing
    // tells this one at once: a stamp that never repeats, so that API keys and settings are read on every request.
    this.platform = { ...handle, changeStamp: () => `${++this.#stamps}` };
  }

  /**
   * Open the database a postgres:// URL names (its `schema` parameter, if
   * any, chooses the platform's schema). The platform's schema is created
   * if `create`, else it must exist (404: run acct init first).
   */
  static async open(dataDir: string, url: string, options: StoreOptions & { create?: boolean } = {}): Promise<PostgresStore> {
    const target = targetOf(url);
    // The data directory holds the key that seals secrets in the database: a command on one that is not there would make a new key.
    if (options.create === false && !fs.existsSync(dataDir)) {
      throw new AppError('not_found', `no data directory ${dataDir}: the books in ${redactedUrl(url)} need the one acct init made (it holds their secret.key)`);
    }
    makePrivateDir(dataDir);
    restrictFile(keyFile(dataDir));
    const store = new PostgresStore(dataDir, url, target);
    try {
      if (options.create === false && !(await schemaExists(store.#pools.platform, target.prefix))) {
        throw new AppError('not_found', `no organisation in ${redactedUrl(url)}: run acct init first`);
      }
      await store.#ensure(target.prefix, 'platform', true);
    } catch (e) {
      await store.close();
      throw e;
    }
    return store;
  }

  /**
   * Copy a SQLite database (the platform's, or one set of books) into its
   * schema here, created if need be (acct migrate-store); every table's
   * row count on both sides.
   */
  async copyFromSqlite(file: string, into: 'platform' | BooksRef, progress?: (rows: number) => void): Promise<TableCopy[]> {
    const set: SchemaSet = into === 'platform' ? 'platform' : 'org';
    const schema = into === 'platform' ? this.#prefix : this.schemaOf(into.orgId, into.mode);
    await this.#ensure(schema, set, true);
    return copySqliteIntoSchema(file, set, this.#pools[set], schema, progress);
  }

  /** The schema of an organisation's books in one mode. */
  schemaOf(orgId: string, mode: Mode): string {
    return `${this.#prefix}_${orgId.replace(/-/g, '')}_${mode}`;
  }

  /** The books a schema holds, if it is one of this store's. */
  #booksOf(schema: string): BooksRef | undefined {
    const match = new RegExp(`^${this.#prefix}_([0-9a-f]{32})_(live|test)$`).exec(schema);
    if (!match) return undefined;
    const hex = match[1]!;
    const orgId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    return { orgId, mode: match[2] as Mode };
  }

  org(orgId: string, mode: Mode): DbHandle<OrgDb> {
    const key = `${orgId}/${mode}`;
    const known = this.#books.get(key);
    if (known) return known;
    if (!isOrganisationId(orgId) || !modes.includes(mode)) throw new AppError('not_found', `organisation ${orgId} not found`);
    const schema = this.schemaOf(orgId, mode);
    const handle = this.#handle<OrgDb>(schema, 'org', () =>
      this.#ensure(schema, 'org', false).catch((e: unknown) => {
        // Not there (yet): ask again next time rather than remember the refusal.
        this.#books.delete(key);
        throw e;
      }),
    );
    this.#books.set(key, handle);
    return handle;
  }

  async createOrg(orgId: string): Promise<Record<Mode, DbHandle<OrgDb>>> {
    if (!isOrganisationId(orgId)) throw new Error(`not an organisation id: ${orgId}`);
    for (const mode of modes) await this.#ensure(this.schemaOf(orgId, mode), 'org', true);
    return { live: this.org(orgId, 'live'), test: this.org(orgId, 'test') };
  }

  /** Remove both schemas of an organisation whose creation failed. */
  async removeOrg(orgId: string): Promise<void> {
    if (!isOrganisationId(orgId)) throw new Error(`not an organisation id: ${orgId}`);
    for (const mode of modes) {
      const key = `${orgId}/${mode}`;
      const schema = this.schemaOf(orgId, mode);
      const handle = this.#books.get(key);
      this.#books.delete(key);
      this.#ready.delete(schema);
      await handle?.close();
      const client = await lend(this.#pools.org);
      try {
        await client.query(`drop schema if exists ${quoted(schema)} cascade`);
      } finally {
        client.release();
      }
    }
  }

  /** The schema created (if `create`) and migrated, once per process; an organisation's that is not there is 404. */
  #ensure(schema: string, set: SchemaSet, create: boolean): Promise<void> {
    let ready = this.#ready.get(schema);
    if (!ready) {
      ready = ensureSchema(this.#pools[set], schema, set, create).then((found) => {
        if (!found) throw new AppError('not_found', `organisation ${this.#booksOf(schema)?.orgId ?? schema} not found`);
        const books = this.#booksOf(schema);
        if (books) for (const listener of this.#openListeners) listener(books.orgId, books.mode);
      });
      ready.catch(() => this.#ready.delete(schema));
      this.#ready.set(schema, ready);
    }
    return ready;
  }

  #handle<DB>(schema: string, set: SchemaSet, ensure: Ensure): DbHandle<DB> {
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: schemaPool(this.#pools[set], schema, ensure, this.#searchPath), cursor: Cursor }) });
    const writes = new GroupCommit<DB>(
      db,
      {
        begin: async (conn) => {
          await sql`begin`.execute(conn);
          await sql`select pg_advisory_xact_lock(hashtextextended(${schema}, 0))`.execute(conn);
        },
        // A failed statement leaves the transaction open until rolled back to the savepoint; a lost connection fails that.
        stillOpen: () => Promise.resolve(true),
        abort: async (conn) => void (await sql`rollback`.execute(conn)),
      },
      () => {},
    );
    return {
      db,
      secrets: this.secrets,
      write: (work) => writes.write(work),
      // Nothing caches what the books hold across requests; a stamp that never repeats, as the platform's.
      changeStamp: () => `${++this.#stamps}`,
      close: () => db.destroy(),
    };
  }

  /**
   * One connection LISTENing on the store's channel, started when a
   * listener of work is first added. Lost, or not made (the server down),
   * it is tried again a second later, then at twice the wait each time up
   * to relistenMaxMs; once it is back, every set of books this process
   * knows is announced as having work, since what was notified meanwhile
   * was not heard.
   */
  #listen(): Promise<pg.Client> {
    if (this.#listener) return this.#listener;
    const attempt: Promise<pg.Client> = (async () => {
      const client = new pg.Client({ connectionString: targetOf(this.#url).connectionString });
      client.on('error', () => {
        if (this.#listener === attempt) this.#listener = undefined;
        void client.end().catch(() => {});
        this.#listenLater();
      });
      client.on('notification', (message) => this.#heard(message.payload ?? ''));
      try {
        await client.connect();
        await client.query(`listen ${channel}`);
      } catch (e) {
        void client.end().catch(() => {});
        throw e;
      }
      if (this.#closed) await client.end();
      return client;
    })();
    this.#listener = attempt;
    attempt.then(
      () => void (this.#relistenWait = relistenMs),
      // A connection not made fires no 'error': forget it here, or every later attempt would be handed the same refusal.
      () => void (this.#listener === attempt && (this.#listener = undefined)),
    );
    return attempt;
  }

  /** Another attempt at the LISTEN connection after the current wait (one at a time), the wait doubled for the next. */
  #listenLater(): void {
    if (this.#closed || this.#relisten !== undefined) return;
    this.#relisten = setTimeout(() => {
      this.#relisten = undefined;
      this.#listenAgain();
    }, this.#relistenWait).unref();
    this.#relistenWait = Math.min(this.#relistenWait * 2, relistenMaxMs);
  }

  #listenAgain(): void {
    if (this.#closed) return;
    this.#listen().then(
      () => {
        for (const key of this.#books.keys()) {
          const [orgId, mode] = key.split('/') as [string, Mode];
          for (const work of ['webhooks', 'issued'] as const) for (const listener of this.#workListeners[work]) listener(orgId, mode);
        }
      },
      () => this.#listenLater(),
    );
  }

  #heard(payload: string): void {
    const [schema, what] = payload.split(' ');
    const books = schema === undefined ? undefined : this.#booksOf(schema);
    if (!books || (what !== 'webhooks' && what !== 'issued')) return;
    for (const listener of this.#workListeners[what]) listener(books.orgId, books.mode);
  }

  onWork(work: Work, listener: BooksListener): () => void {
    this.#workListeners[work].add(listener);
    void this.#listen().catch(() => this.#listenLater());
    return () => this.#workListeners[work].delete(listener);
  }

  onOpen(listener: BooksListener): () => void {
    this.#openListeners.add(listener);
    return () => this.#openListeners.delete(listener);
  }

  /** Every process hears every commit's work through NOTIFY (onWork): nothing changes unannounced. */
  changedElsewhere(reader: ChangeReader = this.#defaultReader): Promise<BooksRef[]> {
    if (!this.#readers.has(reader)) throw new Error('changedElsewhere: not a reader of this store');
    return Promise.resolve([]);
  }

  changeReader(): ChangeReader {
    const reader = Symbol('change reader');
    this.#readers.add(reader);
    return reader;
  }

  get pool(): PoolStats {
    const { org, platform } = this.#pools;
    return {
      totalCount: org.totalCount + platform.totalCount,
      idleCount: org.idleCount + platform.idleCount,
      waitingCount: org.waitingCount + platform.waitingCount,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#relisten);
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) await listener.then((c) => c.end()).catch(() => {});
    const handles = [...this.#books.values()];
    this.#books.clear();
    await Promise.all(handles.map((h) => h.close()));
    await this.platform.close();
    // The pool ends once every connection is given back; one held by a query that never ends is closed after a while.
    const ended = Promise.all([this.#pools.org.end(), this.#pools.platform.end()]);
    const stuck = await Promise.race([ended.then(() => false), new Promise<boolean>((resolve) => setTimeout(resolve, closeGraceMs, true).unref())]);
    if (stuck) {
      for (const client of this.#lent) client.release(new Error('the store was closed with this query under way'));
      await ended;
    }
  }
}

/**
 * The SQLite store. The data directory: platform.sqlite and orgs/<uuid>/{live,test}.sqlite,
 * with a small cache of open organisation databases. The cache closes the
 * least recently used files beyond its size, but never one in use (a query,
 * transaction or write under way): it may hold more for a while. A handle
 * stays valid when its file is closed and opens it again when next used, so
 * code holding one across a request never meets a closed database.
 */
import { AsyncResource } from 'node:async_hooks';
import fs from 'node:fs';
import { AppError } from '../engine/errors.js';
import { isOrganisationId, modes, orgDir, orgFile, platformFile, type Mode } from './data-dir.js';
import { makePrivateDir, restrictFile } from './file-modes.js';
import { keyFile, secretBoxOf, type SecretBox } from './secret-box.js';
import { sealPlainSecrets } from './sealed-secrets.js';
import { handleFor, openSqlite, type DbHandle, type SqliteDatabase, type SuspendableHandle } from './sqlite.js';
import type { OrgDb, PlatformDb } from './tables.js';

import type { BooksListener, BooksRef, ChangeReader, PoolStats, Store, StoreOptions, Work } from './store.js';

interface Book extends BooksRef {
  readonly key: string;
  /** The database file's path. */
  readonly file: string;
  readonly handle: SuspendableHandle<OrgDb>;
  /** PRAGMA data_version when last read, while the file is open: it moves when another connection commits. */
  version: number | undefined;
  /** The files' stamp taken as this store closed them. */
  closedStamp: Stamp | undefined;
}

/** Size and modification time (ms, to the microsecond) of a database file and of its write-ahead log (0 and 0 when it has none or an empty one). */
interface Stamp {
  readonly mainSize: number;
  readonly mainTime: number;
  readonly walSize: number;
  readonly walTime: number;
}

/** A stamp from two stat calls (plain numbers, not BigInts: a check of 2,000 closed files each 10 s is mostly this). */
function stampOf(file: string): Stamp {
  const main = fs.statSync(file, { throwIfNoEntry: false });
  const wal = fs.statSync(`${file}-wal`, { throwIfNoEntry: false });
  const walSize = wal?.size ?? 0;
  return { mainSize: main?.size ?? 0, mainTime: main?.mtimeMs ?? 0, walSize, walTime: walSize > 0 ? (wal?.mtimeMs ?? 0) : 0 };
}

/** How many sets of books changedElsewhere() looks at between turns of the event loop. */
const checkBatch = 200;

/**
 * Whether the files moved since `then`. Another process's commit grows or
 * rewrites the log, or (checkpointed) the database file; a log that
 * vanished or was emptied while the database file stayed is only a
 * connection closing with nothing left to copy.
 */
const moved = (then: Stamp, now: Stamp): boolean =>
  now.mainSize !== then.mainSize || now.mainTime !== then.mainTime || (now.walSize > 0 && (now.walSize !== then.walSize || now.walTime !== then.walTime));

const dataVersion = (db: SqliteDatabase): number => db.pragma('data_version', { simple: true }) as number;

export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  readonly dataDir: string;
  readonly platform: DbHandle<PlatformDb>;
  /** Seals secrets at rest with the key in the data directory's secret.key. */
  readonly secrets: SecretBox;
  readonly #cacheSize: number;
  /** Every set of books this store has opened, open or not: one handle each, so that one process never holds two connections to a file. */
  readonly #books = new Map<string, Book>();
  /** The books whose file is open, least recently used first. */
  readonly #open = new Map<string, Book>();
  readonly #workListeners: Record<Work, Set<BooksListener>> = { webhooks: new Set(), issued: new Set() };
  readonly #openListeners = new Set<BooksListener>();
  /** Per kind of work, the books announced since the listeners were last told. */
  #announced: Record<Work, Map<string, BooksRef>> = { webhooks: new Map(), issued: new Map() };
  #announcing = false;
  /** Per reader of changedElsewhere(), the books another process changed since it last asked. */
  readonly #changed = new Map<ChangeReader, Map<string, BooksRef>>();
  readonly #defaultReader: ChangeReader = this.changeReader();
  /** The async context the store was opened in: listeners run there, not inside the transaction that fired them. */
  readonly #outside = AsyncResource.bind((run: () => void) => run());

  private constructor(dataDir: string, platform: DbHandle<PlatformDb>, secrets: SecretBox, options: StoreOptions) {
    this.dataDir = dataDir;
    this.platform = platform;
    this.secrets = secrets;
    this.#cacheSize = options.cacheSize ?? 32;
  }

  /** Open (creating if needed, 0700) the data directory and its platform database. */
  static open(dataDir: string, options: StoreOptions = {}): SqliteStore {
    makePrivateDir(dataDir);
    restrictFile(keyFile(dataDir));
    const secrets = secretBoxOf(dataDir);
    const platform = handleFor<PlatformDb>(openSqlite(platformFile(dataDir), 'platform', { create: true }), secrets);
    return new SqliteStore(dataDir, platform, secrets, options);
  }

  /** An organisation's database for one mode; 404 when it does not exist. */
  org(orgId: string, mode: Mode): DbHandle<OrgDb> {
    const key = `${orgId}/${mode}`;
    const book = this.#books.get(key);
    if (book) {
      if (this.#open.delete(key)) this.#open.set(key, book);
      return book.handle;
    }
    const file = orgFile(this.dataDir, orgId, mode);
    if (!isOrganisationId(orgId) || !fs.existsSync(file)) {
      throw new AppError('not_found', `organisation ${orgId} not found`);
    }
    return this.#add(orgId, mode, this.#openFile(orgId, mode, false)).handle;
  }

  /** Create the live and test databases of a new organisation, migrated and empty. */
  createOrg(orgId: string): Promise<Record<Mode, DbHandle<OrgDb>>> {
    if (!isOrganisationId(orgId)) throw new Error(`not an organisation id: ${orgId}`);
    makePrivateDir(orgDir(this.dataDir, orgId));
    const open = (mode: Mode) => this.#add(orgId, mode, this.#openFile(orgId, mode, true)).handle;
    return Promise.resolve({ live: open('live'), test: open('test') });
  }

  /** Remove both databases of an organisation whose creation failed: their handles closed, its folder deleted. */
  async removeOrg(orgId: string): Promise<void> {
    if (!isOrganisationId(orgId)) throw new Error(`not an organisation id: ${orgId}`);
    for (const mode of modes) {
      const key = `${orgId}/${mode}`;
      const book = this.#books.get(key);
      this.#books.delete(key);
      this.#open.delete(key);
      await book?.handle.close();
    }
    fs.rmSync(orgDir(this.dataDir, orgId), { recursive: true, force: true });
  }

  /**
   * Call `listener` when this process gives a set of books `work` (see
   * Work). The change is committed, or about to be: a write that follows
   * (the sender's fan-out) queues behind the transaction that made it.
   * Another process's changes are not announced: see changedElsewhere().
   */
  onWork(work: Work, listener: BooksListener): () => void {
    this.#workListeners[work].add(listener);
    return () => this.#workListeners[work].delete(listener);
  }

  /** Call `listener` whenever an organisation's database file is opened (first or again after the cache closed it). */
  onOpen(listener: BooksListener): () => void {
    this.#openListeners.add(listener);
    return () => this.#openListeners.delete(listener);
  }

  /**
   * The books this store has opened that another process (the CLI beside
   * `acct serve`) has written since the last call: by PRAGMA data_version
   * while a file is open, by the files' size and modification time while
   * it is closed. This process's own writes do not count. Cheap: a pragma
   * per open file, two stat calls per closed one, nothing opened. Each
   * reader (changeReader()) is told of a change once; without one, the
   * store's own reader.
   */
  async changedElsewhere(reader: ChangeReader = this.#defaultReader): Promise<BooksRef[]> {
    let checked = 0;
    for (const book of [...this.#books.values()]) {
      // A turn of the event loop now and then, so that requests are not held up for long.
      if (++checked % checkBatch === 0) await new Promise((resolve) => setImmediate(resolve));
      const db = book.handle.database;
      if (db) {
        const version = dataVersion(db);
        if (version !== book.version) this.#changedBy(book);
        book.version = version;
      } else if (book.closedStamp) {
        const now = stampOf(book.file);
        if (moved(book.closedStamp, now)) this.#changedBy(book);
        book.closedStamp = now;
      }
    }
    const changed = this.#changed.get(reader);
    if (!changed) throw new Error('changedElsewhere: not a reader of this store');
    this.#changed.set(reader, new Map());
    return [...changed.values()];
  }

  /** A new reader of changedElsewhere(), told of the changes found from now on. */
  changeReader(): ChangeReader {
    const reader = Symbol('change reader');
    this.#changed.set(reader, new Map());
    return reader;
  }

  /** Another process changed these books: every reader is told at its next changedElsewhere(). */
  #changedBy(book: Book): void {
    for (const changed of this.#changed.values()) changed.set(book.key, { orgId: book.orgId, mode: book.mode });
  }

  /** The platform database and the organisation files open now, as a pool of connections. */
  get pool(): PoolStats {
    return { totalCount: 1 + this.#open.size, idleCount: 1 + this.#open.size - this.filesInUse, waitingCount: 0 };
  }

  /** How many organisation database files are open now. */
  get openFiles(): number {
    return this.#open.size;
  }

  /** How many of the open organisation database files are in use now (a query, transaction or write under way). */
  get filesInUse(): number {
    let busy = 0;
    for (const book of this.#open.values()) if (book.handle.inUse) busy++;
    return busy;
  }

  #openFile(orgId: string, mode: Mode, create: boolean): SqliteDatabase {
    const db = openSqlite(orgFile(this.dataDir, orgId, mode), 'org', { create });
    try {
      sealPlainSecrets(db, this.secrets);
      // Work for the background tasks announces itself (see onWork); TEMP triggers live in this connection only.
      db.function('acct_work', (work: unknown) => {
        this.#announce(work as Work, orgId, mode);
        return null;
      });
      db.exec(`CREATE TEMP TRIGGER acct_event_added AFTER INSERT ON main.outbox BEGIN SELECT acct_work('webhooks'); END;
        CREATE TEMP TRIGGER acct_endpoint_active AFTER UPDATE OF is_active ON main.webhook_endpoints WHEN NEW.is_active = 1
        BEGIN SELECT acct_work('webhooks'); END;
        CREATE TEMP TRIGGER acct_delivery_requeued AFTER UPDATE OF status ON main.webhook_deliveries
        WHEN NEW.status = 'pending' AND OLD.status <> 'pending' BEGIN SELECT acct_work('webhooks'); END;
        CREATE TEMP TRIGGER acct_document_issued AFTER INSERT ON main.invoices WHEN NEW.status IN ('sent', 'approved')
        BEGIN SELECT acct_work('issued'); END;
        CREATE TEMP TRIGGER acct_document_reissued AFTER UPDATE OF status, due_date ON main.invoices WHEN NEW.status IN ('sent', 'approved')
        BEGIN SELECT acct_work('issued'); END;`);
      return db;
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /** Tell the listeners once per set of books, after the statement that fired the trigger (they must not use the database inside it). */
  #announce(work: Work, orgId: string, mode: Mode): void {
    if (this.#workListeners[work].size === 0) return;
    if (!this.#announcing) {
      this.#announcing = true;
      this.#outside(() =>
        queueMicrotask(() => {
          const announced = this.#announced;
          this.#announced = { webhooks: new Map(), issued: new Map() };
          this.#announcing = false;
          for (const [w, books] of Object.entries(announced) as [Work, Map<string, BooksRef>][]) {
            for (const b of books.values()) for (const listener of this.#workListeners[w]) listener(b.orgId, b.mode);
          }
        }),
      );
    }
    this.#announced[work].set(`${orgId}/${mode}`, { orgId, mode });
  }

  #add(orgId: string, mode: Mode, db: SqliteDatabase): Book {
    const key = `${orgId}/${mode}`;
    const book: Book = {
      orgId,
      mode,
      key,
      file: orgFile(this.dataDir, orgId, mode),
      version: undefined,
      closedStamp: undefined,
      handle: handleFor<OrgDb>(db, this.secrets, {
        reopen: () => this.#openFile(orgId, mode, false),
        onReopen: () => this.#opened(book),
        onIdle: () => this.#evict(book),
      }),
    };
    this.#books.set(key, book);
    this.#opened(book);
    return book;
  }

  #opened(book: Book): void {
    const db = book.handle.database;
    if (!db) return;
    // The version first: another process's commit after it moves data_version, one before it the files.
    book.version = dataVersion(db);
    if (book.closedStamp && moved(book.closedStamp, stampOf(book.file))) this.#changedBy(book);
    book.closedStamp = undefined;
    this.#open.delete(book.key);
    this.#open.set(book.key, book);
    for (const listener of this.#openListeners) listener(book.orgId, book.mode);
    this.#evict(book);
  }

  /** Close the least recently used idle files beyond the cache size, but `keep` (just opened, or just done with). */
  #evict(keep: Book): void {
    if (this.#open.size <= this.#cacheSize) return;
    for (const book of this.#open.values()) {
      if (this.#open.size <= this.#cacheSize) return;
      if (book !== keep) this.#close(book);
    }
  }

  #close(book: Book): void {
    const db = book.handle.database;
    if (!db || book.handle.inUse) return;
    // Copy the log into the database now, without waiting on anyone, so that closing has nothing left to
    // write: the stamp taken next is then what another process's later commit would change.
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Not copied: closing copies it, and the stamp differs once, which costs one needless look.
    }
    const stamp = stampOf(book.file);
    const version = dataVersion(db);
    if (version !== book.version) this.#changedBy(book);
    book.version = version;
    if (!book.handle.suspend()) return;
    book.closedStamp = stamp;
    book.version = undefined;
    this.#open.delete(book.key);
  }

  async close(): Promise<void> {
    const all = [...this.#books.values()];
    this.#books.clear();
    this.#open.clear();
    await Promise.all(all.map((b) => b.handle.close()));
    await this.platform.close();
  }
}

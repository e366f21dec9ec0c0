/**
 * Where the books are kept: SQLite files in the data directory (one per
 * organisation and mode), or a PostgreSQL database (one schema per
 * organisation and mode). The engine sees only this interface and the
 * DbHandle of each set of tables.
 */
import type { DbHandle } from './handle.js';
import type { Mode } from './data-dir.js';
import type { SecretBox } from './secret-box.js';
import type { OrgDb, PlatformDb } from './tables.js';

export type { DbHandle } from './handle.js';
export type { SecretBox } from './secret-box.js';
export { insideWriteTransaction } from './handle.js';
export type { Mode } from './data-dir.js';

export interface StoreOptions {
  /** How many organisation databases stay open at once (least recently used are closed). */
  readonly cacheSize?: number;
}

/** One organisation's books in one mode. */
export interface BooksRef {
  readonly orgId: string;
  readonly mode: Mode;
}

export type BooksListener = (orgId: string, mode: Mode) => void;

/**
 * Work a write gives a background task: `webhooks`, an event added to the
 * outbox, an endpoint made active again or a failed delivery put back in
 * the queue (an administrator's replay) (the webhook sender); `issued`, an
 * invoice or bill written in its issued status (the overdue sweep).
 */
export type Work = 'webhooks' | 'issued';

/** One reader of changedElsewhere(): each is told of every change once. */
export type ChangeReader = symbol;

/** The store's connections, as the administrators' system health shows them. */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** The data directory: the secrets' key, and (SQLite) the books. */
  readonly dataDir: string;
  readonly platform: DbHandle<PlatformDb>;
  /** Seals secrets at rest with the key in the data directory's secret.key. */
  readonly secrets: SecretBox;
  /** An organisation's database for one mode; 404 (at once, or at its first use) when it does not exist. */
  org(orgId: string, mode: Mode): DbHandle<OrgDb>;
  /** Create the live and test databases of a new organisation, migrated and empty. */
  createOrg(orgId: string): Promise<Record<Mode, DbHandle<OrgDb>>>;
  /**
   * Remove both databases of an organisation createOrg made whose creation
   * then failed (the platform never listed it): its folder, or its schemas.
   * Nothing else may hold its handles.
   */
  removeOrg(orgId: string): Promise<void>;
  /**
   * Call `listener` when a write gives a set of books `work` (see Work).
   * The change is committed, or about to be: a write that follows (the
   * sender's fan-out) queues behind the transaction that made it.
   */
  onWork(work: Work, listener: BooksListener): () => void;
  /** Call `listener` whenever an organisation's database is opened (first or again after the cache closed it). */
  onOpen(listener: BooksListener): () => void;
  /**
   * The books that another process has written since the last call without
   * onWork hearing of it. Each reader (changeReader()) is told of a change
   * once; without one, the store's own reader.
   */
  changedElsewhere(reader?: ChangeReader): Promise<BooksRef[]>;
  /** A new reader of changedElsewhere(), told of the changes found from now on. */
  changeReader(): ChangeReader;
  readonly pool: PoolStats;
  close(): Promise<void>;
}

/**
 * The API request log, written: every authenticated request's method, path,
 * status, latency, key, idempotency key, address, user agent, headers and
 * bodies (secrets redacted, bodies cut: request-log-redact.ts) and, for
 * errors, the error, kept in the books it was made against for 30 days and at most
 * `maxEntries` entries, the oldest going first. Refusals that cost the
 * sender nothing to repeat (403, 429) are kept as one counted entry per key,
 * status, error code, operation and minute, so that a flood of them adds a
 * row a minute rather than a row a request. Entries are collected in memory
 * and written in batches four times a second (and when the server closes),
 * so logging adds no database write to a request.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Kysely } from 'kysely';
import { newId } from '../ids.js';
import type { Clock } from '../clock.js';
import type { Mode, Store } from '../../store/store.js';
import type { OrgDb, RequestLogTable } from '../../store/tables.js';
import { keptJson, redactHeaders } from './request-log-redact.js';

export const retentionDays = 30;
/** The most entries kept per set of books: some 20 MB at the 200 bytes a typical entry takes. */
export const defaultMaxEntries = 100_000;
/** The statuses logged as counted summaries. */
export const summarisedStatuses: ReadonlySet<number> = new Set([403, 429]);
const flushMs = 250;
const pruneEveryMs = 3600_000;
const minuteMs = 60_000;

export interface RequestEntry {
  readonly organisationId: string;
  readonly mode: Mode;
  readonly method: string;
  readonly path: string;
  /** The operation's route (`/invoices/{id}`): refusals are summarised by it, not by the path sent, which the sender can vary. */
  readonly route: string;
  readonly status: number;
  readonly latencyMs: number;
  readonly keyId: string | null;
  readonly keyPrefix: string | null;
  readonly idempotencyKey: string | null;
  readonly error: unknown;
  readonly ipAddress: string | null;
  readonly userAgent: string | null;
  readonly headers: IncomingHttpHeaders;
  /** The parsed body; undefined when none was read (a GET, or one refused before it was read). */
  readonly requestBody: unknown;
  /** The JSON envelope sent; undefined for a document (a PDF). */
  readonly responseBody: unknown;
  /** The operation's fields that are secrets shown once (redacted beside key, secret, password, token). */
  readonly secrets: readonly string[];
}

export interface RequestLogOptions {
  /** The most entries kept per set of books (default 100,000). */
  readonly maxEntries?: number;
  /** Where a failed write is reported (stderr by default). */
  readonly report?: (message: string) => void;
}

/** The refusals of one group in one minute: its entry, and how many came since it was last written. */
interface Summary {
  readonly books: string;
  readonly minute: number;
  readonly row: RequestLogTable;
  unwritten: number;
  /** Whether its row is in the books, so that later counts are added to it. */
  stored: boolean;
}

/** What is collected for one set of books until the next flush. */
interface Pending {
  readonly rows: RequestLogTable[];
  /** The summaries counted since the last flush, each once. */
  readonly summaries: Summary[];
}

/** What one flush writes to one set of books: rows, and the requests to add to each summary. */
interface Batch {
  readonly rows: readonly RequestLogTable[];
  readonly counts: readonly { readonly summary: Summary; readonly n: number }[];
}

function rowOf(entry: RequestEntry, at: Date): RequestLogTable {
  const request = entry.requestBody === undefined ? undefined : keptJson(entry.requestBody, entry.secrets);
  const response = entry.responseBody === undefined ? undefined : keptJson(entry.responseBody, entry.secrets);
  return {
    id: newId('req', at),
    method: entry.method,
    path: entry.path.slice(0, 2000),
    status: entry.status,
    latency_ms: entry.latencyMs,
    key_id: entry.keyId,
    key_prefix: entry.keyPrefix,
    idempotency_key: entry.idempotencyKey,
    error: entry.error === undefined || entry.error === null ? null : JSON.stringify(entry.error),
    created_at: at.toISOString(),
    count: 1,
    ip_address: entry.ipAddress,
    user_agent: entry.userAgent,
    request_headers: keptJson(redactHeaders(entry.headers)).text,
    request_body: request?.text ?? null,
    request_body_truncated: request?.truncated ? 1 : 0,
    response_body: response?.text ?? null,
    response_body_truncated: response?.truncated ? 1 : 0,
  };
}

const codeOf = (error: unknown): unknown => (typeof error === 'object' && error !== null && 'code' in error ? error.code : null);

async function entriesIn(db: Kysely<OrgDb>): Promise<number> {
  const row = await db
    .selectFrom('request_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export class RequestLogWriter {
  private pending = new Map<string, Pending>();
  /** This minute's summaries by group (older ones are dropped at each flush). */
  private readonly summaries = new Map<string, Summary>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** When each set of books was last pruned of entries past the retention. */
  private readonly pruned = new Map<string, number>();
  /** How many entries each set of books holds, as far as this writer knows: counted at its first write there and at each pruning by age. */
  private readonly sizes = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly report: (message: string) => void;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    options: RequestLogOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? defaultMaxEntries;
    this.report = options.report ?? ((m) => console.error(m));
  }

  add(entry: RequestEntry): void {
    const at = this.clock.now();
    const books = `${entry.organisationId} ${entry.mode}`;
    const pending = this.pendingOf(books);
    if (summarisedStatuses.has(entry.status)) {
      const minute = Math.floor(at.getTime() / minuteMs);
      const group = JSON.stringify([books, entry.keyId, entry.status, codeOf(entry.error), entry.method, entry.route, minute]);
      let summary = this.summaries.get(group);
      if (!summary) {
        summary = { books, minute, row: rowOf(entry, at), unwritten: 0, stored: false };
        this.summaries.set(group, summary);
      }
      if (summary.unwritten++ === 0) pending.summaries.push(summary);
    } else pending.rows.push(rowOf(entry, at));
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, flushMs);
  }

  /** Write what has been collected; resolves when it is stored. */
  flush(): Promise<void> {
    const batches = new Map<string, Batch>();
    for (const [books, { rows, summaries }] of this.pending) {
      const counts = summaries.map((summary) => ({ summary, n: summary.unwritten }));
      for (const summary of summaries) summary.unwritten = 0;
      batches.set(books, { rows, counts });
    }
    this.pending = new Map();
    const minute = Math.floor(this.clock.now().getTime() / minuteMs);
    for (const [group, summary] of this.summaries) if (summary.minute < minute) this.summaries.delete(group);
    this.flushing = this.flushing.then(() => this.write(batches)).catch((e: unknown) => this.report(`request log: ${String(e)}`));
    return this.flushing;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private pendingOf(books: string): Pending {
    let pending = this.pending.get(books);
    if (!pending) {
      pending = { rows: [], summaries: [] };
      this.pending.set(books, pending);
    }
    return pending;
  }

  private async write(batches: ReadonlyMap<string, Batch>): Promise<void> {
    const now = this.clock.now().getTime();
    const cutoff = new Date(now - retentionDays * 86_400_000).toISOString();
    for (const [books, { rows, counts }] of batches) {
      const [organisationId, mode] = books.split(' ') as [string, Mode];
      const prune = now - (this.pruned.get(books) ?? 0) > pruneEveryMs;
      const inserted: Summary[] = [];
      const size = await this.store.org(organisationId, mode).write(async (trx) => {
        if (prune) await trx.deleteFrom('request_log').where('created_at', '<', cutoff).execute();
        const known = prune ? undefined : this.sizes.get(books);
        let size = known ?? (await entriesIn(trx));
        const fresh = [...rows];
        for (const { summary, n } of counts) {
          if (!summary.stored) {
            fresh.push({ ...summary.row, count: n });
            inserted.push(summary);
          } else
            await trx
              .updateTable('request_log')
              .set((eb) => ({ count: eb('count', '+', n) }))
              .where('id', '=', summary.row.id)
              .execute();
        }
        for (let i = 0; i < fresh.length; i += 100)
          await trx
            .insertInto('request_log')
            .values(fresh.slice(i, i + 100))
            .execute();
        size += fresh.length;
        if (size > this.maxEntries) {
          const oldest = trx
            .selectFrom('request_log')
            .select('id')
            .orderBy('created_at')
            .orderBy('id')
            .limit(size - this.maxEntries);
          await trx.deleteFrom('request_log').where('id', 'in', oldest).execute();
          size = this.maxEntries;
        }
        return size;
      });
      this.sizes.set(books, size);
      if (prune) this.pruned.set(books, now);
      for (const summary of inserted) summary.stored = true;
    }
  }
}

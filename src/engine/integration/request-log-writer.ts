/**
 * The API request log, written: every authenticated request's method, path,
 * status, latency, key, idempotency key and, for errors only, the error
 * body, kept in the books it was made against for 30 days. Entries are
 * collected in memory and written in batches four times a second (and when
 * the server closes), so logging adds no database write to a request.
 */
import { newId } from '../ids.js';
import type { Clock } from '../clock.js';
import type { Mode, Store } from '../../store/store.js';
import type { RequestLogTable } from '../../store/tables.js';

export const retentionDays = 30;
const flushMs = 250;

export interface RequestEntry {
  readonly organisationId: string;
  readonly mode: Mode;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly latencyMs: number;
  readonly keyId: string | null;
  readonly keyPrefix: string | null;
  readonly idempotencyKey: string | null;
  readonly error: unknown;
}

export class RequestLogWriter {
  private pending: { entry: RequestEntry; at: Date }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** When each set of books was last pruned of entries past the retention. */
  private readonly pruned = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly report: (message: string) => void = (m) => console.error(m),
  ) {}

  add(entry: RequestEntry): void {
    this.pending.push({ entry, at: this.clock.now() });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, flushMs);
  }

  /** Write what has been collected; resolves when it is stored. */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => this.write(batch)).catch((e: unknown) => this.report(`request log: ${String(e)}`));
    return this.flushing;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(batch: readonly { entry: RequestEntry; at: Date }[]): Promise<void> {
    const byBooks = new Map<string, RequestLogTable[]>();
    for (const { entry, at } of batch) {
      const key = `${entry.organisationId} ${entry.mode}`;
      const rows = byBooks.get(key) ?? [];
      rows.push({
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
      });
      byBooks.set(key, rows);
    }
    const now = this.clock.now().getTime();
    const cutoff = new Date(now - retentionDays * 86_400_000).toISOString();
    for (const [key, rows] of byBooks) {
      const [organisationId, mode] = key.split(' ') as [string, Mode];
      const prune = now - (this.pruned.get(key) ?? 0) > 3600_000;
      if (prune) this.pruned.set(key, now);
      await this.store.org(organisationId, mode).write(async (trx) => {
        for (let i = 0; i < rows.length; i += 100)
          await trx
            .insertInto('request_log')
            .values(rows.slice(i, i + 100))
            .execute();
        if (prune) await trx.deleteFrom('request_log').where('created_at', '<', cutoff).execute();
      });
    }
  }
}

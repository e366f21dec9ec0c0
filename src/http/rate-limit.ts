/**
 * Rate limits per organisation: its plan's requests a minute (Sole Trader
 * 60, Limited Company 120; a trial counts as the plan its business type
 * points to), over a sliding minute, live and test keys together. Key
 * creation and rotation also have their own stricter limit (10 a minute).
 * A request must pass every limit that applies; the first one exhausted
 * answers 429 rate_limited with Retry-After, the seconds until a slot frees.
 * The plan's limit counts every request with a recognised key, before its
 * scope is checked (see app.ts); a refused one takes a slot too.
 * One process counts in its memory (RateLimiter); several acct serve
 * processes over one PostgreSQL database count in it (SharedRateLimiter).
 */
import { AppError } from '../engine/errors.js';
import type { Clock } from '../engine/clock.js';
import { countRequest } from '../engine/integration/shared-rate-limit.js';
import type { Store } from '../store/store.js';

export const planLimits = { sole_trader: 60, limited_company: 120 } as const;
export const keyCreationLimit = 10;
const windowMs = 60_000;

export interface Limiter {
  /** Count a request against `bucket` (at most `limit` a minute); 429 when it is full. */
  take(bucket: string, limit: number, what: string): Promise<void>;
}

/** The refusal of a request when `limit` requests were counted in the minute before now, the oldest at `oldest` (ms). */
function full(limit: number, what: string, oldest: number, now: number): RateLimited {
  const retryAfter = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
  return new RateLimited(`rate limit exceeded: ${limit} requests a minute for ${what}; retry in ${retryAfter} s`, retryAfter);
}

/** Counts in this process's memory. */
export class RateLimiter implements Limiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  take(bucket: string, limit: number, what: string): Promise<void> {
    const now = this.clock.now().getTime();
    const recent = (this.hits.get(bucket) ?? []).filter((t) => t > now - windowMs);
    this.hits.set(bucket, recent);
    if (recent.length >= limit) return Promise.reject(full(limit, what, recent[0]!, now));
    recent.push(now);
    return Promise.resolve();
  }
}

/** Counts in the platform database, shared by every process over one PostgreSQL database (see countRequest). */
export class SharedRateLimiter implements Limiter {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async take(bucket: string, limit: number, what: string): Promise<void> {
    const now = this.clock.now().getTime();
    const oldest = await countRequest(this.store.platform.db, bucket, limit, now, windowMs);
    if (oldest !== null) throw full(limit, what, oldest, now);
  }
}

export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super('rate_limited', message);
  }
}

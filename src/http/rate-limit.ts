/**
 * Rate limits per organisation: its plan's requests a minute (Sole Trader
 * 60, Limited Company 120; a trial counts as the plan its business type
 * points to), over a sliding minute, live and test keys together. Key
 * creation and rotation also have their own stricter limit (10 a minute).
 * A request must pass every limit that applies; the first one exhausted
 * answers 429 rate_limited with Retry-After, the seconds until a slot frees.
 * The plan's limit counts every request with a recognised key, before its
 * scope is checked (see app.ts); a refused one takes a slot too.
 * Counts live in the server's memory.
 */
import { AppError } from '../engine/errors.js';
import type { Clock } from '../engine/clock.js';

export const planLimits = { sole_trader: 60, limited_company: 120 } as const;
export const keyCreationLimit = 10;
const windowMs = 60_000;

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  /** Count a request against `bucket` (at most `limit` a minute); 429 when it is full. */
  take(bucket: string, limit: number, what: string): void {
    const now = this.clock.now().getTime();
    const recent = (this.hits.get(bucket) ?? []).filter((t) => t > now - windowMs);
    if (recent.length >= limit) {
      const retryAfter = Math.max(1, Math.ceil(((recent[0] as number) + windowMs - now) / 1000));
      this.hits.set(bucket, recent);
      throw new RateLimited(`rate limit exceeded: ${limit} requests a minute for ${what}; retry in ${retryAfter} s`, retryAfter);
    }
    recent.push(now);
    this.hits.set(bucket, recent);
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

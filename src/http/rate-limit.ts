/**
 * Rate limits per organisation: its plan's requests a minute (Sole Trader
 * 60, Limited Company 120; a trial counts as the plan its business type
 * points to), over a sliding minute, live and test keys together. Key
 * creation and rotation also have their own stricter limit (10 a minute).
 * The public requests that make or probe accounts are limited per client IP
 * address as well (perIp below: registration, password reset, login, TOTP
 * verify, token refresh, verification e-mail), each over its own sliding window.
 * A request must pass every limit that applies; the first one exhausted
 * answers 429 rate_limited with Retry-After, the seconds until a slot frees.
 * The plan's limit counts every request with a recognised key, before its
 * scope is checked (see app.ts); a refused one takes a slot too.
 * A request counted against a limit is answered with X-RateLimit-Limit,
 * -Remaining and -Reset (Unix seconds when the oldest request in the window
 * leaves it, so a slot frees), for the limit nearest to refusing it.
 * One process counts in its memory (RateLimiter); several acct serve
 * processes over one PostgreSQL database count in it (SharedRateLimiter).
 */
import type { ServerResponse } from 'node:http';
import { AppError } from '../engine/errors.js';
import type { Clock } from '../engine/clock.js';
import { countRequest } from '../engine/integration/shared-rate-limit.js';
import type { Plan } from '../engine/organisation/plan.js';
import type { Store } from '../store/store.js';

/** At most `max` requests in any `windowMs`. */
export interface Limit {
  readonly max: number;
  readonly windowMs: number;
}

export interface RateLimits {
  readonly plans: Readonly<Record<Plan, Limit>>;
  readonly keyCreation: Limit;
  /** An administrator's requests to the administrator endpoints, per administrator, in place of the organisation's plan. */
  readonly administrator: Limit;
  /** Per client IP address, by operation name. */
  readonly perIp: Readonly<Record<string, Limit>>;
}

const minute = 60_000;
export const defaultLimits: RateLimits = {
  plans: { sole_trader: { max: 60, windowMs: minute }, limited_company: { max: 120, windowMs: minute } },
  keyCreation: { max: 10, windowMs: minute },
  administrator: { max: 120, windowMs: minute },
  perIp: {
    'registration.register': { max: 3, windowMs: 60 * minute },
    'password-reset.forgot': { max: 3, windowMs: 60 * minute },
    'email-verification.send': { max: 3, windowMs: 60 * minute },
    'auth.login': { max: 5, windowMs: 15 * minute },
    'auth.totp-verify': { max: 5, windowMs: 15 * minute },
    'auth.refresh': { max: 20, windowMs: 15 * minute },
  },
};

/** Where a limit stands once a request has been counted against it (or refused by it). */
export interface Standing {
  readonly limit: number;
  readonly remaining: number;
  /** When the oldest request in the window leaves it (ms). */
  readonly resetMs: number;
}

export interface Limiter {
  /** Count a request against `bucket`; 429 when it is full. */
  take(bucket: string, limit: Limit, what: string): Promise<Standing>;
}

/** The X-RateLimit-* headers of a standing. */
export function showStanding(res: ServerResponse, s: Standing): void {
  res.setHeader('x-ratelimit-limit', s.limit);
  res.setHeader('x-ratelimit-remaining', s.remaining);
  res.setHeader('x-ratelimit-reset', Math.ceil(s.resetMs / 1000));
}

function per(windowMs: number): string {
  if (windowMs === minute) return 'a minute';
  if (windowMs === 60 * minute) return 'an hour';
  return windowMs % minute === 0 ? `in ${windowMs / minute} minutes` : `in ${windowMs / 1000} s`;
}

/** Where a limit stands with `count` requests in its window, the oldest at `oldest` (ms). */
function standing(limit: Limit, count: number, oldest: number): Standing {
  return { limit: limit.max, remaining: Math.max(0, limit.max - count), resetMs: oldest + limit.windowMs };
}

/** The refusal of a request when the window is full, its oldest request at `oldest` (ms). */
function full(limit: Limit, what: string, oldest: number, now: number): RateLimited {
  const retryAfter = Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000));
  return new RateLimited(
    `rate limit exceeded: ${limit.max} requests ${per(limit.windowMs)} for ${what}; retry in ${retryAfter} s`,
    retryAfter,
    standing(limit, limit.max, oldest),
  );
}

interface Bucket {
  /** The times of the requests counted in the window, oldest first. */
  readonly hits: number[];
  windowMs: number;
}

/** Counts in this process's memory. */
export class RateLimiter implements Limiter {
  private readonly buckets = new Map<string, Bucket>();
  /** Buckets whose window has emptied are dropped once the map grows past this (one per client IP address adds up). */
  private sweepAt = 1024;

  constructor(private readonly clock: Clock) {}

  take(bucket: string, limit: Limit, what: string): Promise<Standing> {
    const now = this.clock.now().getTime();
    let b = this.buckets.get(bucket);
    if (!b) {
      if (this.buckets.size >= this.sweepAt) this.sweep(now);
      this.buckets.set(bucket, (b = { hits: [], windowMs: limit.windowMs }));
    }
    b.windowMs = limit.windowMs;
    const hits = b.hits;
    // Trimmed in place from the front, without a new array per request; a clock stepped back leaves a later hit before an earlier one, counted until those ahead of it expire.
    let expired = 0;
    while (expired < hits.length && hits[expired]! <= now - limit.windowMs) expired++;
    if (expired > 0) hits.splice(0, expired);
    if (hits.length >= limit.max) return Promise.reject(full(limit, what, hits[0]!, now));
    hits.push(now);
    return Promise.resolve(standing(limit, hits.length, hits[0]!));
  }

  private sweep(now: number): void {
    for (const [key, b] of this.buckets) if (b.hits.length === 0 || b.hits[b.hits.length - 1]! <= now - b.windowMs) this.buckets.delete(key);
    this.sweepAt = Math.max(1024, this.buckets.size * 2);
  }
}

/** Counts in the platform database, shared by every process over one PostgreSQL database (see countRequest). */
export class SharedRateLimiter implements Limiter {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async take(bucket: string, limit: Limit, what: string): Promise<Standing> {
    const now = this.clock.now().getTime();
    const counted = await countRequest(this.store.platform.db, bucket, limit.max, now, limit.windowMs);
    if (!counted.counted) throw full(limit, what, counted.oldest, now);
    return standing(limit, counted.count, counted.oldest);
  }
}

export class RateLimited extends AppError {
  constructor(
    message: string,
    override readonly retryAfter: number,
    readonly standing: Standing,
  ) {
    super('rate_limited', message);
  }
}

/**
 * The webhook sender: turns outbox events into deliveries (one per
 * subscribed active endpoint registered before the event) and attempts
 * the due ones. A delivery is a POST of {event, timestamp, data} with the
 * X-Service-* headers, signed with HMAC-SHA256 over "<timestamp>.<body>"
 * keyed by the endpoint's whole secret (whsec_ included), lowercase hex.
 * A 2xx within 30 s succeeds; anything else is retried 1 min, 5 min,
 * 30 min and 2 h after the attempts before, and after the fifth failure
 * the delivery is failed (the endpoint stays active). Deliveries live in
 * the database, so a restarted server resumes the pending ones.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import fs from 'node:fs';
import tls from 'node:tls';
import type { Kysely } from 'kysely';
import { timestamp, type Clock } from '../clock.js';
import { version } from '../../version.js';
import { assertOutsideTransaction } from '../external.js';
import { checkWebhookUrl, deliveryLookup, type Resolve } from './webhook-url.js';
import type { WebhookPolicy } from '../webhook-policy.js';
import { newDeliveryId } from './webhooks.js';
import type { BooksRef, ChangeReader, DbHandle, SecretBox, Store } from '../../store/store.js';
import { modes } from '../../store/data-dir.js';
import type { OrgDb, WebhookDeliveriesTable } from '../../store/tables.js';

/** Waits before attempts 2, 3, 4 and 5. */
export const retryDelaysMs = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000] as const;
export const maxAttempts = 5;
export const responseTimeoutMs = 30_000;

export interface SenderOptions {
  readonly clock: Clock;
  readonly policy: WebhookPolicy;
  /** Extra certificate authorities to trust (PEM), for receivers with a private CA. */
  readonly ca?: string | Buffer | undefined;
  readonly timeoutMs?: number;
  /** How host names are resolved, before and at connection time (the system resolver unless a test stands in). */
  readonly resolve?: Resolve | undefined;
}

/** The signature of a delivery: lowercase hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret. */
export function signature(secret: string, unixSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
}

/** Make the deliveries of outbox events not yet handled; how many events were handled. */
export async function fanOut(books: DbHandle<OrgDb>, clock: Clock): Promise<number> {
  return books.write(async (trx) => {
    const events = await trx
      .selectFrom('outbox')
      .select(['id', 'event', 'payload', 'created_at'])
      .where('fanned_out', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .limit(500)
      .execute();
    if (events.length === 0) return 0;
    const endpoints = await trx.selectFrom('webhook_endpoints').select(['id', 'events', 'created_at']).where('is_active', '=', 1).execute();
    const subscribed = endpoints.map((e) => ({ ...e, kinds: new Set(JSON.parse(e.events) as string[]) }));
    const now = timestamp(clock);
    const rows: WebhookDeliveriesTable[] = [];
    for (const e of events) {
      const body = `{"event":${JSON.stringify(e.event)},"timestamp":${JSON.stringify(e.created_at)},"data":${e.payload}}`;
      for (const endpoint of subscribed) {
        if (!endpoint.kinds.has(e.event) || endpoint.created_at > e.created_at) continue;
        rows.push({
          id: newDeliveryId(),
          endpoint_id: endpoint.id,
          event_id: e.id,
          event: e.event,
          body,
          event_at: e.created_at,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          last_attempt_at: null,
          response_status: null,
          latency_ms: null,
          error: null,
          created_at: now,
          completed_at: null,
        });
      }
    }
    for (let i = 0; i < rows.length; i += 100)
      await trx
        .insertInto('webhook_deliveries')
        .values(rows.slice(i, i + 100))
        .execute();
    await trx
      .updateTable('outbox')
      .set({ fanned_out: 1 })
      .where(
        'id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    return events.length;
  });
}

export interface Attempt {
  readonly ok: boolean;
  readonly responseStatus: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
}

/** The certificates of $NODE_EXTRA_CA_CERTS, which Node adds to its roots unless ca is given. */
function extraCaCerts(): string[] {
  const file = process.env['NODE_EXTRA_CA_CERTS'];
  if (!file) return [];
  try {
    return [fs.readFileSync(file, 'utf8')];
  } catch {
    return [];
  }
}

/** POST one delivery; never throws (but for a caller inside a write transaction, a bug: see external.ts). */
export async function attempt(
  url: string,
  secret: string,
  delivery: Pick<WebhookDeliveriesTable, 'id' | 'event' | 'body'>,
  options: SenderOptions,
): Promise<Attempt> {
  assertOutsideTransaction('delivering a webhook');
  const started = Date.now();
  const failure = (error: string, responseStatus: number | null = null): Attempt => ({ ok: false, responseStatus, latencyMs: Date.now() - started, error });
  let target: URL;
  try {
    target = await checkWebhookUrl(url, options.policy, 'url', options.resolve);
  } catch (e) {
    return failure((e as Error).message);
  }
  const unix = Math.floor(options.clock.now().getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(delivery.body)),
    'user-agent': `acct-webhooks/${version}`,
    'x-service-event': delivery.event,
    'x-service-signature': signature(secret, unix, delivery.body),
    'x-service-timestamp': String(unix),
    'x-service-delivery': delivery.id,
  };
  const timeout = options.timeoutMs ?? responseTimeoutMs;
  return new Promise<Attempt>((resolve) => {
    // The status once the response has begun: an answer whose body does not end in time is no success, but its status is kept.
    let answered: number | null = null;
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: 'POST',
        headers,
        lookup: deliveryLookup(options.policy, options.resolve),
        // Node's ca replaces the trusted roots: add the extra CA to them instead.
        ...(options.ca === undefined ? {} : { ca: [...tls.rootCertificates, ...extraCaCerts(), options.ca] }),
        signal: AbortSignal.timeout(timeout),
      },
      (res) => {
        answered = res.statusCode ?? null;
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve(
            status >= 200 && status < 300
              ? { ok: true, responseStatus: status, latencyMs: Date.now() - started, error: null }
              : failure(`HTTP ${status}`, status),
          );
        });
        res.on('error', (e) => resolve(failure(e.message, res.statusCode ?? null)));
      },
    );
    req.on('error', (e) => {
      const late = e.name === 'AbortError' || e.name === 'TimeoutError';
      if (!late) resolve(failure(e.message, answered));
      else
        resolve(
          failure(
            answered === null ? `no response within ${timeout / 1000} s` : `HTTP ${answered}, but its body did not end within ${timeout / 1000} s`,
            answered,
          ),
        );
    });
    req.end(delivery.body);
  });
}

/**
 * An attempt with the endpoint's sealed secret. A secret this data
 * directory's key cannot open (the database was copied without its
 * secret.key) fails the attempt, sending nothing: rotating the secret
 * seals a new one with the key at hand.
 */
async function attemptSealed(
  box: SecretBox,
  url: string,
  sealed: string,
  delivery: Pick<WebhookDeliveriesTable, 'id' | 'event' | 'body'>,
  options: SenderOptions,
): Promise<Attempt> {
  let secret: string;
  try {
    secret = box.open(sealed);
  } catch (e) {
    return { ok: false, responseStatus: null, latencyMs: 0, error: `not sent: ${(e as Error).message}; rotate the endpoint's secret` };
  }
  return attempt(url, secret, delivery, options);
}

/**
 * Store what an attempt gave: succeeded, or failed after the fifth, or the
 * time of the next try. The attempt is counted in the database (attempts +
 * 1), not from the row as it was claimed, so that none goes uncounted.
 */
async function record(trx: Kysely<OrgDb>, delivery: Pick<WebhookDeliveriesTable, 'id'>, result: Attempt, clock: Clock): Promise<void> {
  const now = clock.now();
  const { attempts } = await trx
    .updateTable('webhook_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', delivery.id)
    .returning('attempts')
    .executeTakeFirstOrThrow();
  const done = result.ok || attempts >= maxAttempts;
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: result.ok ? 'succeeded' : done ? 'failed' : 'pending',
      last_attempt_at: now.toISOString(),
      next_attempt_at: done ? null : new Date(now.getTime() + (retryDelaysMs[attempts - 1] ?? 0)).toISOString(),
      response_status: result.responseStatus,
      latency_ms: result.latencyMs,
      error: result.error,
      completed_at: done ? now.toISOString() : null,
    })
    .where('id', '=', delivery.id)
    .execute();
}

/** The deliveries due now, oldest first, with their endpoint's URL and sealed secret; none of the endpoints in `busy`. */
function dueDeliveries(db: Kysely<OrgDb>, now: string, busy: ReadonlySet<string>) {
  let q = db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .selectAll('webhook_deliveries')
    .select(['webhook_endpoints.url', 'webhook_endpoints.secret'])
    .where('webhook_deliveries.status', '=', 'pending')
    .where('webhook_endpoints.is_active', '=', 1)
    .where('webhook_deliveries.next_attempt_at', '<=', now);
  if (busy.size > 0) q = q.where('webhook_deliveries.endpoint_id', 'not in', [...busy]);
  return q.orderBy('webhook_deliveries.next_attempt_at').orderBy('webhook_deliveries.created_at').limit(100);
}

/**
 * Where a sender that keeps running (acct serve) takes over the attempts:
 * each endpoint's run on their own, so that one slow to answer holds up
 * only its own deliveries, and deliverDue returns without waiting for them.
 */
export interface Lanes {
  /** Endpoints with attempts under way: their due deliveries wait until those end. */
  readonly busy: ReadonlySet<string>;
  run(endpointId: string, attempts: Promise<void>): void;
}

/** How long a claim on a delivery holds from now: twice the response timeout, ample for an attempt and its record. */
const claimUntil = (options: SenderOptions): string => new Date(options.clock.now().getTime() + 2 * (options.timeoutMs ?? responseTimeoutMs)).toISOString();

/**
 * Renew this sender's claim on a delivery just before attempting it: still
 * pending and still claimed `until` (no other sender has claimed it since
 * the claim lapsed), it is claimed for a whole window from now and true is
 * returned; otherwise it is left alone (false).
 */
async function renewClaim(books: DbHandle<OrgDb>, id: string, until: string, options: SenderOptions): Promise<boolean> {
  const renewed = await books.write((trx) =>
    trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: claimUntil(options) })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', until)
      .executeTakeFirst(),
  );
  return renewed.numUpdatedRows > 0n;
}

/**
 * A few attempts to one endpoint at a time, each recorded as it ends. The
 * deliveries were claimed `until`; an endpoint slow to answer may take
 * longer than that over all of them, so each claim is renewed as its
 * attempt begins, and a delivery another sender has claimed since is left
 * to it.
 */
async function attemptAll(books: DbHandle<OrgDb>, due: readonly DueDelivery[], until: string, options: SenderOptions): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let d = due[next++]; d !== undefined; d = due[next++]) {
      const { url, secret, ...delivery } = d;
      if (!(await renewClaim(books, delivery.id, until, options))) continue;
      const result = await attemptSealed(books.secrets, url, secret, delivery, options);
      await books.write((trx) => record(trx, delivery, result, options.clock));
    }
  };
  await Promise.all(Array.from({ length: Math.min(perEndpoint, due.length) }, worker));
}

type DueDelivery = Awaited<ReturnType<ReturnType<typeof dueDeliveries>['execute']>>[number];

/** Attempts under way at once to one endpoint. */
const perEndpoint = 4;

/**
 * Attempt every delivery that is due, endpoint by endpoint, a few at a time
 * to each; how many were claimed. The due ones are claimed first, in a
 * write transaction: their next attempt is moved past twice the response
 * timeout, so that another sender over the same books (a second acct serve
 * on PostgreSQL, or on the same files) does not attempt them too, and a
 * claim left by a stopped process lapses and the delivery is tried again.
 * Each claim is renewed as its attempt begins (attemptAll): one not yet
 * attempted when it lapses is another sender's to take.
 * The attempts themselves run outside any transaction; given `lanes`, they
 * are handed over and not waited for, and endpoints with attempts under way
 * are left for later.
 */
export async function deliverDue(books: DbHandle<OrgDb>, options: SenderOptions, lanes?: Lanes): Promise<number> {
  const now = timestamp(options.clock);
  const busy = lanes?.busy ?? new Set<string>();
  // Most rounds find nothing due: a read, and no write transaction.
  if ((await dueDeliveries(books.db, now, busy).execute()).length === 0) return 0;
  const claimedUntil = claimUntil(options);
  const due = await books.write(async (trx) => {
    const rows = await dueDeliveries(trx, now, busy).execute();
    if (rows.length > 0) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: claimedUntil })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
    return rows;
  });
  const byEndpoint = new Map<string, DueDelivery[]>();
  for (const d of due) byEndpoint.set(d.endpoint_id, [...(byEndpoint.get(d.endpoint_id) ?? []), d]);
  const runs = [...byEndpoint].map(([endpointId, deliveries]) => [endpointId, attemptAll(books, deliveries, claimedUntil, options)] as const);
  if (lanes) for (const [endpointId, attempts] of runs) lanes.run(endpointId, attempts);
  else await Promise.all(runs.map(([, attempts]) => attempts));
  return due.length;
}

/** One round of the sender over some books: fan out new events, then attempt what is due. */
export async function sendWebhooks(books: DbHandle<OrgDb>, options: SenderOptions, lanes?: Lanes): Promise<number> {
  while ((await fanOut(books, options.clock)) === 500);
  return deliverDue(books, options, lanes);
}

/**
 * When the books next need the sender (ms since the epoch): at once when
 * events wait to be fanned out, else when the earliest pending delivery to
 * an active endpoint is due, else never (undefined); endpoints in `busy`
 * (attempts under way) are left out: their end looks at the books again.
 */
export async function nextDue(books: DbHandle<OrgDb>, busy: ReadonlySet<string> = new Set()): Promise<number | undefined> {
  const waiting = await books.db.selectFrom('outbox').select('id').where('fanned_out', '=', 0).limit(1).executeTakeFirst();
  if (waiting) return 0;
  let q = books.db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select('webhook_deliveries.next_attempt_at')
    .where('webhook_deliveries.status', '=', 'pending')
    .where('webhook_endpoints.is_active', '=', 1);
  if (busy.size > 0) q = q.where('webhook_deliveries.endpoint_id', 'not in', [...busy]);
  const next = await q.orderBy('webhook_deliveries.next_attempt_at').limit(1).executeTakeFirst();
  return next?.next_attempt_at ? Date.parse(next.next_attempt_at) : undefined;
}

export interface SchedulerOptions extends SenderOptions {
  /** Where a failure is reported; the sender goes on with the other books. */
  readonly report: (message: string) => void;
  /** Milliseconds between looks for books another process has changed (default 10 s). */
  readonly sweepMs?: number;
  /** How many sets of books are worked on at once (default 4), so that one slow receiver does not hold up the rest. */
  readonly concurrency?: number;
}

/** How long a set of books whose round failed waits before the next one. */
const failureBackoffMs = 60_000;
/** The longest a timer may wait (setTimeout's limit). */
const longestTimerMs = 2 ** 31 - 1;

const keyOf = (b: BooksRef): string => `${b.orgId}/${b.mode}`;

/**
 * The sender as acct serve runs it. It sleeps until there is something to
 * do: this process's new events and endpoints made active again are
 * announced by the store, and each set of books has the time its next
 * retry is due (read from every organisation's books once at start, then
 * kept after each round), with one timer for the earliest. What another
 * process (the CLI beside the server) writes is found by a sweep every
 * sweepMs that asks the store which books changed elsewhere, opening none.
 */
export class WebhookSender {
  readonly #store: Store;
  readonly #options: SchedulerOptions;
  /** Books with work and when it is due (ms since the epoch). */
  readonly #due = new Map<string, { readonly books: BooksRef; at: number }>();
  readonly #running = new Map<string, Promise<void>>();
  /** Per books, the endpoints with attempts under way, handed over by their rounds. */
  readonly #lanes = new Map<string, Map<string, Promise<void>>>();
  /** Books announced during their round: looked at again after it. */
  readonly #again = new Set<string>();
  /** Books looked at since start (the sweep looks at the others: organisations made by another process). */
  readonly #known = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #sweepTimer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> = Promise.resolve();
  #stopped = false;
  readonly #unsubscribe: () => void;
  readonly #reader: ChangeReader;

  /** A sender that does nothing until start(); lookAt() may be given books before then. */
  constructor(store: Store, options: SchedulerOptions) {
    this.#store = store;
    this.#options = options;
    this.#reader = store.changeReader();
    this.#unsubscribe = store.onWork('webhooks', (orgId, mode) => this.#wake({ orgId, mode }));
  }

  /** A sender, started. */
  static start(store: Store, options: SchedulerOptions): WebhookSender {
    return new WebhookSender(store, options).start();
  }

  /** Look at every organisation's books not looked at yet (in the background), then sleep until something is due. */
  start(): this {
    this.#sweepNow();
    return this;
  }

  /** Note when these books are next due, now: a pass that opens every set of books anyway saves start() opening them again. */
  lookAt(books: BooksRef): Promise<void> {
    return this.#look(books);
  }

  /** The time the sender will next work on these books (ms since the epoch), if any: for tests and diagnostics. */
  dueAt(books: BooksRef): number | undefined {
    return this.#due.get(keyOf(books))?.at;
  }

  /** Resolves once the first look at every organisation's books is done. */
  get started(): Promise<void> {
    return this.#sweeping;
  }

  /** Stop waking; resolves once the round and sweep in flight have finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe();
    clearTimeout(this.#timer);
    clearTimeout(this.#sweepTimer);
    await this.#sweeping;
    await Promise.all(this.#running.values());
    await Promise.all([...this.#lanes.values()].flatMap((lanes) => [...lanes.values()]));
  }

  #now(): number {
    return this.#options.clock.now().getTime();
  }

  get #concurrency(): number {
    return this.#options.concurrency ?? 4;
  }

  /** Work on these books at once (or right after the round under way). */
  #wake(books: BooksRef): void {
    if (this.#stopped) return;
    const key = keyOf(books);
    this.#known.add(key);
    if (this.#running.has(key)) this.#again.add(key);
    else this.#plan(books, 0);
  }

  /** Work on these books by `at` (an earlier plan stands). */
  #plan(books: BooksRef, at: number): void {
    const key = keyOf(books);
    const planned = this.#due.get(key);
    if (!planned || at < planned.at) this.#due.set(key, { books, at });
    this.#arm();
  }

  /** One timer, for the earliest due books not being worked on (none while every slot is busy: a round's end arms it). */
  #arm(): void {
    if (this.#stopped) return;
    let earliest = Infinity;
    if (this.#running.size < this.#concurrency) for (const [key, { at }] of this.#due) if (at < earliest && !this.#running.has(key)) earliest = at;
    if (earliest === this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = earliest;
    if (earliest === Infinity) return;
    this.#timer = setTimeout(() => this.#tick(), Math.min(longestTimerMs, Math.max(0, earliest - this.#now())));
  }

  #tick(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = this.#now();
    const due = [...this.#due.entries()].filter(([key, d]) => d.at <= now && !this.#running.has(key)).sort((a, b) => a[1].at - b[1].at);
    for (const [key, { books }] of due) {
      if (this.#running.size >= this.#concurrency) break;
      this.#due.delete(key);
      this.#running.set(
        key,
        this.#round(books).finally(() => {
          this.#running.delete(key);
          if (this.#again.delete(key)) this.#plan(books, 0);
          this.#arm();
        }),
      );
    }
    this.#arm();
  }

  /**
   * Fan out and start attempting what is due, then note when these books are
   * next due. The attempts run on after the round, each endpoint's on its
   * own: an endpoint slow to answer holds up only its own deliveries, and
   * its end looks at the books again.
   */
  async #round(books: BooksRef): Promise<void> {
    const key = keyOf(books);
    const running = this.#lanes.get(key) ?? new Map<string, Promise<void>>();
    this.#lanes.set(key, running);
    let next: number | undefined;
    try {
      const handle = this.#store.org(books.orgId, books.mode);
      await sendWebhooks(handle, this.#options, {
        busy: new Set(running.keys()),
        run: (endpointId, attempts) => {
          running.set(
            endpointId,
            attempts
              .catch((e: unknown) => this.#options.report(`webhook sender, ${books.orgId} (${books.mode}): ${(e as Error).message}`))
              .finally(() => {
                running.delete(endpointId);
                this.#wake(books);
              }),
          );
        },
      });
      next = await nextDue(handle, new Set(running.keys()));
    } catch (e) {
      this.#options.report(`webhook sender, ${books.orgId} (${books.mode}): ${(e as Error).message}`);
      next = this.#now() + failureBackoffMs;
    }
    // Books with more due than one round takes go behind the others already due.
    if (next !== undefined && !this.#stopped) this.#plan(books, Math.max(next, this.#now()));
  }

  /** Note when books not being worked on are next due, from their database. */
  async #look(books: BooksRef): Promise<void> {
    const key = keyOf(books);
    this.#known.add(key);
    if (this.#running.has(key)) {
      this.#again.add(key);
      return;
    }
    try {
      const at = await nextDue(this.#store.org(books.orgId, books.mode), new Set(this.#lanes.get(key)?.keys()));
      if (at !== undefined) this.#plan(books, at);
    } catch (e) {
      this.#options.report(`webhook sender, ${books.orgId} (${books.mode}): ${(e as Error).message}`);
    }
  }

  #sweepNow(): void {
    this.#sweeping = this.#sweep()
      .catch((e: unknown) => this.#options.report(`webhook sender: ${String(e)}`))
      .finally(() => {
        if (!this.#stopped) this.#sweepTimer = setTimeout(() => this.#sweepNow(), this.#options.sweepMs ?? 10_000);
      });
  }

  /** Look at the books another process changed, and at those of organisations not seen yet (all of them at start). */
  async #sweep(): Promise<void> {
    const changed = new Set((await this.#store.changedElsewhere(this.#reader)).map(keyOf));
    const organisations = await this.#store.platform.db.selectFrom('organisations').select('id').orderBy('id').execute();
    for (const { id } of organisations) {
      for (const mode of modes) {
        if (this.#stopped) return;
        const books = { orgId: id, mode };
        const key = keyOf(books);
        if (!this.#known.has(key) || changed.has(key)) await this.#look(books);
      }
    }
  }
}

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
import type { DbHandle, SecretBox, Store } from '../../store/store.js';
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
    req.on('error', (e) => resolve(failure(e.name === 'AbortError' || e.name === 'TimeoutError' ? `no response within ${timeout / 1000} s` : e.message)));
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

/** Store what an attempt gave: succeeded, or failed after the fifth, or the time of the next try. */
async function record(trx: Kysely<OrgDb>, delivery: WebhookDeliveriesTable, result: Attempt, clock: Clock): Promise<void> {
  const now = clock.now();
  const attempts = delivery.attempts + 1;
  const done = result.ok || attempts >= maxAttempts;
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: result.ok ? 'succeeded' : done ? 'failed' : 'pending',
      attempts,
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

/** Attempt every delivery that is due, a few at a time; how many were attempted. */
export async function deliverDue(books: DbHandle<OrgDb>, options: SenderOptions): Promise<number> {
  const due = await books.db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .selectAll('webhook_deliveries')
    .select(['webhook_endpoints.url', 'webhook_endpoints.secret'])
    .where('webhook_deliveries.status', '=', 'pending')
    .where('webhook_endpoints.is_active', '=', 1)
    .where('webhook_deliveries.next_attempt_at', '<=', timestamp(options.clock))
    .orderBy('webhook_deliveries.next_attempt_at')
    .orderBy('webhook_deliveries.created_at')
    .limit(100)
    .execute();
  const concurrency = 4;
  for (let i = 0; i < due.length; i += concurrency) {
    await Promise.all(
      due.slice(i, i + concurrency).map(async (d) => {
        const { url, secret, ...delivery } = d;
        const result = await attemptSealed(books.secrets, url, secret, delivery, options);
        await books.write((trx) => record(trx, delivery, result, options.clock));
      }),
    );
  }
  return due.length;
}

/** One round of the sender over some books: fan out new events, then attempt what is due. */
export async function sendWebhooks(books: DbHandle<OrgDb>, options: SenderOptions): Promise<number> {
  while ((await fanOut(books, options.clock)) === 500);
  return deliverDue(books, options);
}

/** One round over every organisation's live and test books, as acct serve runs it every second. */
export async function sendAllWebhooks(store: Store, options: SenderOptions, report: (message: string) => void): Promise<void> {
  const organisations = await store.platform.db.selectFrom('organisations').select('id').orderBy('id').execute();
  for (const { id } of organisations) {
    for (const mode of modes) {
      try {
        await sendWebhooks(store.org(id, mode), options);
      } catch (e) {
        report(`webhook sender, ${id} (${mode}): ${(e as Error).message}`);
      }
    }
  }
}

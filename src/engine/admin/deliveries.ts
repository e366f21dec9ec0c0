/**
 * Webhook deliveries across the installation. They live in each
 * organisation's own books (live and test), so every read here opens each
 * set in turn and merges what they hold; nothing is copied to the platform.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { instant } from '../output.js';
import { eventKinds } from '../events.js';
import { perPageMeta, type PerPageMeta } from '../pagination.js';
import type { Ctx } from '../operation.js';
import type { BooksRef, DbHandle, Mode } from '../../store/store.js';
import { modes } from '../../store/data-dir.js';
import type { OrgDb } from '../../store/tables.js';

/** Every organisation's books in both modes (or those asked for), oldest organisation first. */
export async function everyBooks(ctx: Ctx, only: { readonly organisationId?: string | undefined; readonly mode?: Mode | undefined } = {}): Promise<BooksRef[]> {
  let q = ctx.platform.db.selectFrom('organisations').select('id').orderBy('created_at').orderBy('id');
  if (only.organisationId) q = q.where('id', '=', only.organisationId);
  const rows = await q.execute();
  return rows.flatMap(({ id }) => modes.filter((m) => !only.mode || m === only.mode).map((mode) => ({ orgId: id, mode })));
}

const booksOf = (ctx: Ctx, b: BooksRef): DbHandle<OrgDb> => ctx.store.org(b.orgId, b.mode);

export const failedDeliverySchema = z.strictObject({
  id: z.uuid(),
  organisationId: z.string(),
  mode: z.enum(['live', 'test']),
  endpointId: z.string(),
  endpointUrl: z.string(),
  eventId: z.string(),
  eventType: z.enum(eventKinds),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable().describe('why the last attempt failed'),
  createdAt: instant(),
  lastAttemptAt: instant().nullable(),
  failedAt: instant().nullable().describe('when the last attempt failed and the delivery was given up'),
});
type FailedDelivery = z.output<typeof failedDeliverySchema>;

/** The newest first: by the time given up, then id (unique across every set of books). */
const newestFirst = (a: FailedDelivery, b: FailedDelivery): number => (b.failedAt ?? '').localeCompare(a.failedAt ?? '') || b.id.localeCompare(a.id);

/**
 * One page of the failed deliveries of every set of books, newest first.
 * Each set gives its count and its own first page × perPage rows, which
 * is all a merge needs to find the page.
 */
export async function failedDeliveries(
  ctx: Ctx,
  books: readonly BooksRef[],
  { page, perPage }: { readonly page: number; readonly perPage: number },
): Promise<{ readonly rows: FailedDelivery[]; readonly meta: PerPageMeta }> {
  let total = 0;
  const candidates: FailedDelivery[] = [];
  for (const b of books) {
    const db = booksOf(ctx, b).db;
    const failed = db.selectFrom('webhook_deliveries').where('status', '=', 'failed');
    const { n } = await failed.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    total += Number(n);
    if (Number(n) === 0) continue;
    const rows = await failed
      .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
      .selectAll('webhook_deliveries')
      .select('webhook_endpoints.url')
      .orderBy('webhook_deliveries.completed_at', 'desc')
      .orderBy('webhook_deliveries.id', 'desc')
      .limit(page * perPage)
      .execute();
    for (const r of rows) {
      candidates.push({
        id: r.id,
        organisationId: b.orgId,
        mode: b.mode,
        endpointId: r.endpoint_id,
        endpointUrl: r.url,
        eventId: r.event_id,
        eventType: r.event as FailedDelivery['eventType'],
        attempts: r.attempts,
        responseStatus: r.response_status,
        error: r.error,
        createdAt: r.created_at,
        lastAttemptAt: r.last_attempt_at,
        failedAt: r.completed_at,
      });
    }
  }
  const rows = candidates.sort(newestFirst).slice((page - 1) * perPage, page * perPage);
  return { rows, meta: perPageMeta(total, page, perPage) };
}

export const recentErrorSchema = z.strictObject({
  deliveryId: z.uuid(),
  organisationId: z.string(),
  mode: z.enum(['live', 'test']),
  endpointId: z.string(),
  eventType: z.enum(eventKinds),
  status: z.enum(['pending', 'failed']).describe('pending: it will be tried again'),
  error: z.string(),
  responseStatus: z.number().int().nullable(),
  attemptedAt: instant(),
});
type RecentError = z.output<typeof recentErrorSchema>;

export interface DeliveryHealth {
  readonly last24h: { readonly total: number; readonly processed: number; readonly failed: number; readonly pending: number };
  readonly recentErrors: RecentError[];
}

/** Deliveries made in the last 24 hours across every set of books, by outcome, and the latest failed attempts. */
export async function deliveryHealth(ctx: Ctx, recent: number): Promise<DeliveryHealth> {
  const since = new Date(ctx.clock.now().getTime() - 24 * 3600_000).toISOString();
  const counts = { pending: 0, succeeded: 0, failed: 0 };
  const errors: RecentError[] = [];
  for (const b of await everyBooks(ctx)) {
    const db = booksOf(ctx, b).db;
    const byStatus = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', since)
      .groupBy('status')
      .execute();
    for (const r of byStatus) counts[r.status] += Number(r.n);
    const failedAttempts = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'endpoint_id', 'event', 'status', 'error', 'response_status', 'last_attempt_at'])
      .where('error', 'is not', null)
      .where('status', '!=', 'succeeded')
      .where('last_attempt_at', 'is not', null)
      .orderBy('last_attempt_at', 'desc')
      .limit(recent)
      .execute();
    for (const r of failedAttempts) {
      errors.push({
        deliveryId: r.id,
        organisationId: b.orgId,
        mode: b.mode,
        endpointId: r.endpoint_id,
        eventType: r.event as RecentError['eventType'],
        status: r.status as RecentError['status'],
        error: r.error ?? '',
        responseStatus: r.response_status,
        attemptedAt: r.last_attempt_at ?? '',
      });
    }
  }
  const recentErrors = errors.sort((a, b) => b.attemptedAt.localeCompare(a.attemptedAt) || b.deliveryId.localeCompare(a.deliveryId)).slice(0, recent);
  const total = counts.pending + counts.succeeded + counts.failed;
  return { last24h: { total, processed: counts.succeeded, failed: counts.failed, pending: counts.pending }, recentErrors };
}

export interface Requeued extends BooksRef {
  readonly requeued: number;
}

/**
 * Put failed deliveries back in the queue as new (pending, no attempts,
 * due now), so the sender tries them again on its usual schedule: the ones
 * named, else every failed one. The sender never tries a delivery to an
 * endpoint switched off: one named is 422, and every failed one leaves
 * them failed (and uncounted). A named id that is not a failed delivery
 * of some set of books is 404; both found before anything is changed.
 * Each set of books is changed in its own transaction; nothing is sent here.
 */
export async function requeueFailed(ctx: Ctx, ids: readonly string[] | null): Promise<Requeued[]> {
  const books = await everyBooks(ctx);
  const wanted = new Map<string, string[]>();
  if (ids !== null) {
    const left = new Set(ids);
    const switchedOff: string[] = [];
    for (const b of books) {
      if (left.size === 0) break;
      const rows = await booksOf(ctx, b)
        .db.selectFrom('webhook_deliveries')
        .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
        .select(['webhook_deliveries.id', 'webhook_deliveries.endpoint_id', 'webhook_endpoints.is_active'])
        .where('webhook_deliveries.status', '=', 'failed')
        .where('webhook_deliveries.id', 'in', [...left])
        .execute();
      if (rows.length === 0) continue;
      wanted.set(
        `${b.orgId}/${b.mode}`,
        rows.map((r) => r.id),
      );
      for (const r of rows) {
        left.delete(r.id);
        if (r.is_active !== 1) switchedOff.push(`${r.id} (endpoint ${r.endpoint_id})`);
      }
    }
    if (left.size > 0) throw new AppError('not_found', `webhook delivery ${[...left].join(', ')} not found among the failed deliveries: nothing was replayed`);
    if (switchedOff.length > 0)
      throw new AppError(
        'unprocessable_entity',
        `webhook delivery ${switchedOff.join(', ')} is to an endpoint switched off, which the sender does not try until its organisation switches it on: nothing was replayed`,
      );
  }
  const now = timestamp(ctx.clock);
  const out: Requeued[] = [];
  for (const b of books) {
    const only = wanted.get(`${b.orgId}/${b.mode}`);
    if (ids !== null && !only) continue;
    const requeued = await booksOf(ctx, b).write(async (trx) => {
      let q = trx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, completed_at: null })
        .where('status', '=', 'failed')
        .where('endpoint_id', 'in', trx.selectFrom('webhook_endpoints').select('id').where('is_active', '=', 1));
      if (only) q = q.where('id', 'in', only);
      return Number((await q.executeTakeFirst()).numUpdatedRows);
    });
    if (requeued > 0) out.push({ ...b, requeued });
  }
  return out;
}

/**
 * The system's health for administrators: the database and the webhook
 * deliveries of every organisation (GET /admin/system/health), the failed
 * deliveries (GET /admin/system/webhooks/failed), and putting them back in
 * the sender's queue (POST /admin/system/replay-webhooks).
 */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { instant } from '../output.js';
import { perPageMetaSchema, perPageQuery } from '../pagination.js';
import { checkDatabase, degradedAfterMs } from '../platform/health.js';
import { appendAudit } from './audit.js';
import { deliveryHealth, everyBooks, failedDeliveries, failedDeliverySchema, recentErrorSchema, requeueFailed } from './deliveries.js';

/** How many of the latest failed attempts the health shows. */
export const recentErrorCount = 10;
/** More than this share of the last 24 hours' deliveries failed: the webhooks are a warning. */
export const failedShareWarning = 0.1;
/** The most deliveries one replay names. */
export const maxReplayIds = 100;

const healthStatus = z.enum(['healthy', 'warning']);

export const systemHealth = defineOperation({
  name: 'admin.system-health',
  summary: 'The database and the webhook deliveries of every organisation, with the latest errors',
  description: `database.pool, for SQLite files rather than a pool of connections: totalCount is the platform database and the organisation database files open now, idleCount those of them with nothing under way, waitingCount always 0 (each file has its one connection, which answers in turn). webhooks: deliveries made in the last 24 hours by outcome (processed: succeeded), the ${recentErrorCount} latest failed attempts, and warning when more than ${failedShareWarning * 100}% failed. status is warning when the webhooks are or the database took over ${degradedAfterMs} ms.`,
  access: 'admin',
  method: 'GET',
  path: '/admin/system/health',
  output: z.strictObject({
    status: healthStatus,
    timestamp: instant(),
    database: z.strictObject({
      latencyMs: z.number(),
      pool: z.strictObject({ totalCount: z.number().int(), idleCount: z.number().int(), waitingCount: z.number().int() }),
    }),
    webhooks: z.strictObject({
      last24h: z.strictObject({ total: z.number().int(), processed: z.number().int(), failed: z.number().int(), pending: z.number().int() }),
      recentErrors: z.array(recentErrorSchema),
      status: healthStatus,
    }),
  }),
  async run(ctx) {
    // The files as the request found them, before the look at every organisation's books opens them.
    const pool = ctx.store.pool;
    const database = await checkDatabase(ctx.platform.db);
    if (database.status === 'outage')
      throw new AppError('service_unavailable', `the platform database: ${database.message ?? 'down'}`, undefined, { cause: database.cause });
    const { last24h, recentErrors } = await deliveryHealth(ctx, recentErrorCount);
    const webhooks: z.output<typeof healthStatus> = last24h.failed > last24h.total * failedShareWarning ? 'warning' : 'healthy';
    const status: z.output<typeof healthStatus> = webhooks === 'warning' || database.status === 'degraded' ? 'warning' : 'healthy';
    return {
      data: {
        status,
        timestamp: timestamp(ctx.clock),
        database: { latencyMs: database.latency, pool },
        webhooks: { last24h, recentErrors, status: webhooks },
      },
    };
  },
});

export const failedWebhooks = defineOperation({
  name: 'admin.failed-webhooks',
  summary: 'Webhook deliveries given up after their last attempt, across every organisation, newest first',
  description: "Read from each organisation's books (live and test); filter by organisationId and mode. Pagination B: perPage 20 by default.",
  access: 'admin',
  method: 'GET',
  path: '/admin/system/webhooks/failed',
  query: {
    organisationId: z
      .uuid()
      .optional()
      .meta({ examples: ['0b6c8f0e-6f4e-4d0a-9a57-5f1e2d3c4b5a'] }),
    mode: z.enum(['live', 'test']).optional(),
    ...perPageQuery(20),
  },
  output: z.array(failedDeliverySchema),
  meta: perPageMetaSchema,
  async run(ctx, input) {
    const books = await everyBooks(ctx, { organisationId: input.organisationId, mode: input.mode });
    const { rows, meta } = await failedDeliveries(ctx, books, input);
    return { data: rows, meta };
  },
});

export const replayWebhooks = defineOperation({
  name: 'admin.replay-webhooks',
  summary: 'Queue failed webhook deliveries again: those named, or every failed one',
  description: `Each goes back to pending with no attempts, due now, and the sender tries it again with its usual retries (a running acct serve at once; one beside the CLI within its sweep). An id that is not a failed delivery is 404 and nothing is queued. The sender does not try a delivery to an endpoint switched off: one named is 422 and nothing is queued, and every failed one leaves them failed. Up to ${maxReplayIds} ids.`,
  access: 'admin',
  method: 'POST',
  path: '/admin/system/replay-webhooks',
  body: {
    deliveryIds: z.array(z.uuid()).min(1).max(maxReplayIds).optional().describe('the deliveries to replay; omitted, every failed one'),
  },
  output: z.strictObject({
    requeued: z.number().int(),
    books: z.array(z.strictObject({ organisationId: z.string(), mode: z.enum(['live', 'test']), requeued: z.number().int() })),
  }),
  async run(ctx, input) {
    const ids = input.deliveryIds ? [...new Set(input.deliveryIds)] : null;
    const done = await requeueFailed(ctx, ids);
    const books = done.map((b) => ({ organisationId: b.orgId, mode: b.mode, requeued: b.requeued }));
    const requeued = books.reduce((sum, b) => sum + b.requeued, 0);
    // The deliveries live in the organisations' books: changed there first, then recorded here.
    await ctx.platform.write((trx) =>
      appendAudit(trx, ctx, { action: 'WEBHOOKS_REPLAYED', entityType: 'system', entityId: 'webhooks', details: { deliveryIds: ids, requeued, books } }),
    );
    return { data: { requeued, books } };
  },
});

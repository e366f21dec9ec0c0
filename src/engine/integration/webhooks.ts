/**
 * Webhook endpoints: at most 5 per organisation's books, HTTPS URLs with
 * public addresses, a subscription to any of the event kinds, a signing
 * secret (whsec_…) shown on creation and rotation only, delivery stats
 * for the last 24 hours, and the delivery log. Managing them needs a key
 * with all scopes (the spec names no scope for them).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineOperation, orgOf, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { eventKinds } from '../events.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import { idOf } from '../schema.js';
import { pageMeta, pageOffset, pageQuery } from '../pagination.js';
import { checkWebhookUrl } from './webhook-url.js';
import { strictPolicy } from '../webhook-policy.js';
import type { OrgDb, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../store/tables.js';

export const maxEndpoints = 5;

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function newSecret(): string {
  let out = 'whsec_';
  for (const byte of randomBytes(32)) out += base62[byte % 62];
  return out;
}

async function stats24h(db: Kysely<OrgDb>, endpointId: string, since: string) {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .where('endpoint_id', '=', endpointId)
    .where('created_at', '>=', since)
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { total: count('pending') + count('succeeded') + count('failed'), succeeded: count('succeeded'), failed: count('failed'), pending: count('pending') };
}

async function endpointView(db: Kysely<OrgDb>, ctx: Ctx, row: WebhookEndpointsTable, withSecret = false) {
  const since = new Date(ctx.clock.now().getTime() - 24 * 3600_000).toISOString();
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    isActive: row.is_active === 1,
    ...(withSecret ? { secret: row.secret } : { secretPrefix: row.secret.slice(0, 10) }),
    stats24h: await stats24h(db, row.id, since),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function findEndpoint(db: Kysely<OrgDb>, id: string): Promise<WebhookEndpointsTable> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `webhook endpoint ${id} not found`);
  return row;
}

const events = () =>
  z
    .array(z.enum(eventKinds))
    .min(1)
    .transform((list) => [...new Set(list)]);

const endpointParams = { id: idOf('whe') };

export const createWebhook = defineOperation({
  name: 'webhooks.create',
  secrets: ['secret'],
  summary: 'Register a webhook endpoint (at most 5): an https URL and the events it receives; the signing secret is shown now only',
  access: 'all-scopes',
  method: 'POST',
  path: '/webhooks',
  status: 201,
  body: { url: z.string().max(2048), events: events(), description: z.string().max(255).nullable().optional() },
  async run(ctx, input) {
    await checkWebhookUrl(input.url, ctx.webhookPolicy ?? strictPolicy);
    const org = orgOf(ctx);
    const view = await org.write(async (trx) => {
      const { n } = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      if (Number(n) >= maxEndpoints) throw new AppError('unprocessable_entity', `an organisation may register at most ${maxEndpoints} webhook endpoints`);
      const now = timestamp(ctx.clock);
      const row: WebhookEndpointsTable = {
        id: newId('whe', ctx.clock.now()),
        url: input.url,
        description: input.description ?? null,
        events: JSON.stringify(input.events),
        secret: newSecret(),
        is_active: 1,
        created_at: now,
        updated_at: now,
      };
      await trx.insertInto('webhook_endpoints').values(row).execute();
      return endpointView(trx, ctx, row, true);
    });
    return { data: view };
  },
});

export const listWebhooks = defineOperation({
  name: 'webhooks.list',
  summary: 'The webhook endpoints, with their 24-hour delivery stats, and the events available',
  access: 'all-scopes',
  method: 'GET',
  path: '/webhooks',
  async run(ctx) {
    const db = orgOf(ctx).db;
    const rows = await db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute();
    const endpoints = [];
    for (const row of rows) endpoints.push(await endpointView(db, ctx, row));
    return { data: { endpoints, availableEvents: [...eventKinds] } };
  },
});

export const updateWebhook = defineOperation({
  name: 'webhooks.update',
  summary: 'Change a webhook endpoint: url, events, description, isActive (partial)',
  access: 'all-scopes',
  method: 'PATCH',
  path: '/webhooks/{id}',
  params: endpointParams,
  body: {
    url: z.string().max(2048).optional(),
    events: events().optional(),
    description: z.string().max(255).nullable().optional(),
    isActive: z.boolean().optional(),
  },
  async run(ctx, input) {
    if (input.url !== undefined) await checkWebhookUrl(input.url, ctx.webhookPolicy ?? strictPolicy);
    const view = await orgOf(ctx).write(async (trx) => {
      const row = await findEndpoint(trx, input.id);
      const changes = {
        url: input.url,
        events: input.events === undefined ? undefined : JSON.stringify(input.events),
        description: input.description,
        is_active: input.isActive === undefined ? undefined : input.isActive ? 1 : 0,
        updated_at: timestamp(ctx.clock),
      };
      await trx.updateTable('webhook_endpoints').set(changes).where('id', '=', row.id).execute();
      return endpointView(trx, ctx, await findEndpoint(trx, row.id));
    });
    return { data: view };
  },
});

export const deleteWebhook = defineOperation({
  name: 'webhooks.delete',
  summary: 'Remove a webhook endpoint and its delivery log',
  access: 'all-scopes',
  method: 'DELETE',
  path: '/webhooks/{id}',
  params: endpointParams,
  async run(ctx, input) {
    await orgOf(ctx).write(async (trx) => {
      await findEndpoint(trx, input.id);
      await trx.deleteFrom('webhook_endpoints').where('id', '=', input.id).execute();
    });
    return { data: { id: input.id, deleted: true } };
  },
});

export const rotateWebhook = defineOperation({
  name: 'webhooks.rotate',
  secrets: ['secret'],
  summary: 'A new signing secret for an endpoint; the old one stops working at once',
  access: 'all-scopes',
  method: 'POST',
  path: '/webhooks/{id}/rotate',
  params: endpointParams,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      const row = await findEndpoint(trx, input.id);
      const secret = newSecret();
      const updatedAt = timestamp(ctx.clock);
      await trx.updateTable('webhook_endpoints').set({ secret, updated_at: updatedAt }).where('id', '=', row.id).execute();
      return endpointView(trx, ctx, { ...row, secret, updated_at: updatedAt }, true);
    });
    return { data: view };
  },
});

export function deliveryView(row: WebhookDeliveriesTable) {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.response_status,
    latencyMs: row.latency_ms,
    error: row.error,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    completedAt: row.completed_at,
  };
}

export const listDeliveries = defineOperation({
  name: 'webhooks.deliveries',
  summary: "An endpoint's delivery log, newest first",
  access: 'all-scopes',
  method: 'GET',
  path: '/webhook-endpoints/{id}/deliveries',
  params: endpointParams,
  query: { status: z.enum(['pending', 'succeeded', 'failed']).optional(), ...pageQuery(20) },
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await findEndpoint(db, input.id);
    let q = db.selectFrom('webhook_deliveries').where('endpoint_id', '=', input.id);
    if (input.status) q = q.where('status', '=', input.status);
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('event_at', 'desc')
      .orderBy('event_id', 'desc')
      .limit(input.limit)
      .offset(pageOffset(input.page, input.limit))
      .execute();
    return { data: rows.map(deliveryView), meta: pageMeta(Number(total), input.page, input.limit) };
  },
});

/** A delivery id: a UUID, kept across the delivery's attempts (X-Service-Delivery). */
export const newDeliveryId = (): string => randomUUID();

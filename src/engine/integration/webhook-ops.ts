/** The webhook operations: /webhooks and the delivery log, managed by a key with all scopes (the spec names no scope for them). */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { eventKinds } from '../events.js';
import { idOf } from '../schema.js';
import { idOut } from '../output.js';
import { listPage, pageMetaSchema, pageQuery } from '../pagination.js';
import { strictPolicy } from '../webhook-policy.js';
import { checkWebhookUrl } from './webhook-url.js';
import {
  createEndpoint,
  deleteEndpoint,
  deliverySchema,
  deliveryStatuses,
  deliveryView,
  endpointSchema,
  endpointWithSecretSchema,
  findEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from './webhooks.js';

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
  output: endpointWithSecretSchema,
  // The URL's host is looked up (DNS) before any transaction opens, an Idempotency-Key's included.
  external: async (ctx, input) => void (await checkWebhookUrl(input.url, ctx.webhookPolicy ?? strictPolicy)),
  async run(ctx, input) {
    const spec = { url: input.url, events: input.events, description: input.description ?? null };
    const books = orgOf(ctx);
    return { data: await books.write((trx) => createEndpoint(trx, ctx.clock, books.secrets, spec)) };
  },
});

export const listWebhooks = defineOperation({
  name: 'webhooks.list',
  summary: 'The webhook endpoints, with their 24-hour delivery stats, and the events available',
  access: 'all-scopes',
  method: 'GET',
  path: '/webhooks',
  output: z.strictObject({ endpoints: z.array(endpointSchema), availableEvents: z.array(z.enum(eventKinds)) }),
  async run(ctx) {
    return { data: { endpoints: await listEndpoints(orgOf(ctx).db, ctx.clock), availableEvents: [...eventKinds] } };
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
  output: endpointSchema,
  external: async (ctx, input) => {
    if (input.url !== undefined) await checkWebhookUrl(input.url, ctx.webhookPolicy ?? strictPolicy);
  },
  async run(ctx, input) {
    const { id, ...changes } = input;
    return { data: await orgOf(ctx).write((trx) => updateEndpoint(trx, ctx.clock, id, changes)) };
  },
});

export const deleteWebhook = defineOperation({
  name: 'webhooks.delete',
  summary: 'Remove a webhook endpoint and its delivery log',
  access: 'all-scopes',
  method: 'DELETE',
  path: '/webhooks/{id}',
  params: endpointParams,
  output: z.strictObject({ id: idOut('whe'), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteEndpoint(trx, input.id));
    return { data: { id: input.id, deleted: true as const } };
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
  output: endpointWithSecretSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    return { data: await books.write((trx) => rotateSecret(trx, ctx.clock, books.secrets, input.id)) };
  },
});

export const listDeliveries = defineOperation({
  name: 'webhooks.deliveries',
  summary: "An endpoint's delivery log, newest first",
  access: 'all-scopes',
  method: 'GET',
  path: '/webhook-endpoints/{id}/deliveries',
  params: endpointParams,
  query: { status: z.enum(deliveryStatuses).optional(), ...pageQuery(20) },
  output: z.array(deliverySchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await findEndpoint(db, input.id);
    let q = db.selectFrom('webhook_deliveries').where('endpoint_id', '=', input.id);
    if (input.status) q = q.where('status', '=', input.status);
    const { rows, meta } = await listPage(q, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('event_at', 'desc').orderBy('event_id', 'desc'), input);
    return { data: rows.map(deliveryView), meta };
  },
});

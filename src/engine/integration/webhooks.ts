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
import { eventKinds, type EventKind } from '../events.js';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { newId } from '../ids.js';
import { timestamp, type Clock } from '../clock.js';
import { idOut, instant } from '../output.js';
import type { SecretBox } from '../../store/store.js';
import type { DeliveryStatus, OrgDb, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../store/tables.js';

export const maxEndpoints = 5;

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function newSecret(): string {
  let out = 'whsec_';
  for (const byte of randomBytes(32)) out += base62[byte % 62];
  return out;
}

export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const satisfies readonly DeliveryStatus[];

const statsSchema = z
  .strictObject({ total: z.number().int(), succeeded: z.number().int(), failed: z.number().int(), pending: z.number().int() })
  .describe('deliveries made in the last 24 hours, by status');
type Stats = z.output<typeof statsSchema>;

async function stats24h(db: Kysely<OrgDb>, endpointId: string, since: string): Promise<Stats> {
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

const endpointFields = {
  id: idOut('whe'),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(eventKinds)),
  isActive: z.boolean(),
};
const endpointTimes = { stats24h: statsSchema, createdAt: instant(), updatedAt: instant() };

/** A webhook endpoint as listed and changed: its secret shown by its first characters only. */
export const endpointSchema = z.strictObject({
  ...endpointFields,
  secretPrefix: z.string().describe('the first 10 characters of the signing secret, to recognise it by'),
  ...endpointTimes,
});
export type Endpoint = z.output<typeof endpointSchema>;

/** A webhook endpoint just created or given a new secret: the whole secret, this once. */
export const endpointWithSecretSchema = z.strictObject({
  ...endpointFields,
  secret: z
    .string()
    .nullable()
    .describe(
      'the signing secret (whsec_…), shown in this response only; null when the response is replayed for a repeated Idempotency-Key, since secrets are never stored for replays',
    ),
  ...endpointTimes,
});
export type EndpointWithSecret = z.output<typeof endpointWithSecretSchema>;

const since24h = (clock: Clock): string => new Date(clock.now().getTime() - 24 * 3600_000).toISOString();

export async function endpointView(db: Kysely<OrgDb>, clock: Clock, row: WebhookEndpointsTable): Promise<Endpoint> {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as EventKind[],
    isActive: row.is_active === 1,
    secretPrefix: row.secret_prefix,
    stats24h: await stats24h(db, row.id, since24h(clock)),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The endpoint with its secret (`row` holds it sealed), shown on creation and rotation only. */
async function endpointWithSecret(db: Kysely<OrgDb>, clock: Clock, row: WebhookEndpointsTable, secret: string): Promise<EndpointWithSecret> {
  const { secretPrefix: _prefix, ...view } = await endpointView(db, clock, row);
  return { ...view, secret };
}

/** A fresh secret: as shown once, and as kept (sealed, with its prefix in the clear). */
function freshSecret(box: SecretBox): { shown: string; kept: Pick<WebhookEndpointsTable, 'secret' | 'secret_prefix'> } {
  const shown = newSecret();
  return { shown, kept: { secret: box.seal(shown), secret_prefix: shown.slice(0, 10) } };
}

export const findEndpoint = (db: Kysely<OrgDb>, id: string): Promise<WebhookEndpointsTable> =>
  found(db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst(), 'webhook endpoint', id);

export async function listEndpoints(db: Kysely<OrgDb>, clock: Clock): Promise<Endpoint[]> {
  const rows = await db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute();
  const endpoints: Endpoint[] = [];
  for (const row of rows) endpoints.push(await endpointView(db, clock, row));
  return endpoints;
}

export interface NewEndpoint {
  readonly url: string;
  readonly events: readonly EventKind[];
  readonly description: string | null;
}

/** Register an endpoint with a fresh secret, sealed by `box` (422 past maxEndpoints); its URL is checked by the caller, outside the transaction. */
export async function createEndpoint(trx: Kysely<OrgDb>, clock: Clock, box: SecretBox, spec: NewEndpoint): Promise<EndpointWithSecret> {
  const { n } = await trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) >= maxEndpoints) throw new AppError('unprocessable_entity', `an organisation may register at most ${maxEndpoints} webhook endpoints`);
  const now = timestamp(clock);
  const { shown, kept } = freshSecret(box);
  const row: WebhookEndpointsTable = {
    id: newId('whe', clock.now()),
    url: spec.url,
    description: spec.description,
    events: JSON.stringify(spec.events),
    ...kept,
    is_active: 1,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('webhook_endpoints').values(row).execute();
  return endpointWithSecret(trx, clock, row, shown);
}

export interface EndpointChanges {
  readonly url?: string | undefined;
  readonly events?: readonly EventKind[] | undefined;
  readonly description?: string | null | undefined;
  readonly isActive?: boolean | undefined;
}

export async function updateEndpoint(trx: Kysely<OrgDb>, clock: Clock, id: string, changes: EndpointChanges): Promise<Endpoint> {
  const row = await findEndpoint(trx, id);
  await trx
    .updateTable('webhook_endpoints')
    .set({
      url: changes.url,
      events: changes.events === undefined ? undefined : JSON.stringify(changes.events),
      description: changes.description,
      is_active: changes.isActive === undefined ? undefined : changes.isActive ? 1 : 0,
      updated_at: timestamp(clock),
    })
    .where('id', '=', row.id)
    .execute();
  return endpointView(trx, clock, await findEndpoint(trx, row.id));
}

/** Remove an endpoint; its deliveries go with it (on delete cascade). */
export async function deleteEndpoint(trx: Kysely<OrgDb>, id: string): Promise<void> {
  await findEndpoint(trx, id);
  await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** A new signing secret, sealed by `box`; the old one stops working at once. */
export async function rotateSecret(trx: Kysely<OrgDb>, clock: Clock, box: SecretBox, id: string): Promise<EndpointWithSecret> {
  const row = await findEndpoint(trx, id);
  const { shown, kept } = freshSecret(box);
  const updatedAt = timestamp(clock);
  await trx
    .updateTable('webhook_endpoints')
    .set({ ...kept, updated_at: updatedAt })
    .where('id', '=', row.id)
    .execute();
  return endpointWithSecret(trx, clock, { ...row, ...kept, updated_at: updatedAt }, shown);
}

export const deliverySchema = z.strictObject({
  id: z.uuid().describe('the delivery, kept across its attempts (X-Service-Delivery)'),
  endpointId: idOut('whe'),
  eventId: idOut('evt'),
  eventType: z.enum(eventKinds),
  status: z.enum(deliveryStatuses),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable().describe("the HTTP status of the last attempt's response; null before one, or when none came"),
  latencyMs: z.number().nullable().describe('milliseconds the last attempt took'),
  error: z.string().nullable().describe('why the last attempt failed'),
  createdAt: instant(),
  lastAttemptAt: instant().nullable(),
  nextAttemptAt: instant().nullable().describe('when it is next tried; null once succeeded or failed'),
  completedAt: instant().nullable(),
});
export type Delivery = z.output<typeof deliverySchema>;

export function deliveryView(row: WebhookDeliveriesTable): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event as EventKind,
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

/** A delivery id: a UUID, kept across the delivery's attempts (X-Service-Delivery). */
export const newDeliveryId = (): string => randomUUID();

/**
 * The API request log, read: the requests made against these books in the
 * last 30 days, newest first, and one request in detail with its headers and
 * bodies. Served at /api-request-log (the published path) and at
 * /request-log, its path before, whose field names each entry still carries.
 * Written by the HTTP adapter through request-log-writer.ts; a key with all
 * scopes reads it.
 * An entry of refusals (403, 429) stands for `count` requests of one key to
 * one operation in one minute, shown with the first one's path and error.
 */
import { z } from 'zod';
import { defineOperation, orgOf, type Ctx } from '../operation.js';
import { found } from '../lookup.js';
import { idOf } from '../schema.js';
import { idOut, instant } from '../output.js';
import { listPage, pageMetaSchema, pageQuery } from '../pagination.js';
import type { ApiKeysTable, RequestLogTable } from '../../store/tables.js';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** One entry of the log with the names of /request-log, as a bug report's apiContext keeps it. */
export const requestLogEntry = z.strictObject({
  id: idOut('req'),
  method: z.enum(methods),
  path: z.string().describe('as requested, under /v1 or /api/v1, with its query string'),
  status: z.number().int().describe('the HTTP status of the response'),
  latencyMs: z.number().int().describe('milliseconds from the request to the response'),
  keyId: idOut('key').nullable(),
  keyPrefix: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  createdAt: instant(),
  count: z
    .number()
    .int()
    .min(1)
    .describe('the requests this entry stands for: 1, or for refusals (403, 429) how many of one key to one operation came in its minute'),
});
type Entry = z.output<typeof requestLogEntry>;

const deprecated = (same: string) => `the same as ${same}, under the name /request-log gave it`;

/** One entry of the log, as listed: the published fields, and those of /request-log. */
const listedEntry = requestLogEntry.extend({
  apiKeyId: idOut('key').nullable().describe('the API key that made the request; null for a user session'),
  keyPreview: z.string().nullable().describe("the key's prefix and last four characters; null when the key is no longer found"),
  keyName: z.string().nullable().describe("the key's name; null when the key is no longer found"),
  statusCode: z.number().int().describe('the HTTP status of the response'),
  responseTimeMs: z.number().int().describe('milliseconds from the request to the response'),
  ipAddress: z.string().nullable().describe('the address the request came from; null for entries logged before it was recorded'),
  userAgent: z.string().nullable().describe('its User-Agent header (500 characters at most)'),
  status: requestLogEntry.shape.status.describe(deprecated('statusCode')),
  latencyMs: requestLogEntry.shape.latencyMs.describe(deprecated('responseTimeMs')),
  keyId: requestLogEntry.shape.keyId.describe(deprecated('apiKeyId')),
  keyPrefix: requestLogEntry.shape.keyPrefix.describe('the first 8 characters of the key sent (sk_live_ or sk_test_)'),
});
type Listed = z.output<typeof listedEntry>;

const bodyNote =
  'the JSON, with secret fields (key, secret, password, token…) redacted; when over 16,384 characters, the text of its first 16,384 (see the Truncated flag)';
const detailSchema = listedEntry.extend({
  requestHeaders: z
    .record(z.string(), z.string())
    .nullable()
    .describe('the request headers, Authorization, Cookie, Stripe-Signature and any …-Secret or …-Token redacted'),
  requestBody: z.unknown().describe(`${bodyNote}; null for a GET and for a body that was not read`),
  requestBodyTruncated: z.boolean(),
  responseBody: z.unknown().describe(`${bodyNote}; null for a read that succeeded (a GET: the resource as it stood) and for a document (a PDF)`),
  responseBodyTruncated: z.boolean(),
  error: z
    .strictObject({ code: z.string(), message: z.string(), field: z.string().optional() })
    .nullable()
    .describe('the error member of the response when it failed (status 400 or more), else null'),
});
type Detail = z.output<typeof detailSchema>;

export function entryView(row: RequestLogTable): Entry {
  return {
    id: row.id,
    method: row.method as (typeof methods)[number],
    path: row.path,
    status: row.status,
    latencyMs: row.latency_ms,
    keyId: row.key_id,
    keyPrefix: row.key_prefix,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
    count: row.count,
  };
}

type KeyRow = Pick<ApiKeysTable, 'id' | 'name' | 'prefix' | 'last_four'>;

/** The keys of these rows, read now: a request log row keeps only the key's id. */
async function keysOf(ctx: Ctx, rows: readonly RequestLogTable[]): Promise<Map<string, KeyRow>> {
  const ids = [...new Set(rows.flatMap((r) => (r.key_id === null ? [] : [r.key_id])))];
  if (ids.length === 0) return new Map();
  const keys = await ctx.platform.db.selectFrom('api_keys').select(['id', 'name', 'prefix', 'last_four']).where('id', 'in', ids).execute();
  return new Map(keys.map((k) => [k.id, k]));
}

function listedView(row: RequestLogTable, key: KeyRow | undefined): Listed {
  return {
    ...entryView(row),
    apiKeyId: row.key_id,
    keyPreview: key ? `${key.prefix}…${key.last_four}` : null,
    keyName: key?.name ?? null,
    statusCode: row.status,
    responseTimeMs: row.latency_ms,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
  };
}

const bodyOf = (text: string | null, truncated: number): unknown => (text === null ? null : truncated ? text : JSON.parse(text));

function detailView(row: RequestLogTable, key: KeyRow | undefined): Detail {
  return {
    ...listedView(row, key),
    requestHeaders: row.request_headers === null ? null : (JSON.parse(row.request_headers) as Record<string, string>),
    requestBody: bodyOf(row.request_body, row.request_body_truncated),
    requestBodyTruncated: row.request_body_truncated === 1,
    responseBody: bodyOf(row.response_body, row.response_body_truncated),
    responseBodyTruncated: row.response_body_truncated === 1,
    error: row.error === null ? null : (JSON.parse(row.error) as Detail['error']),
  };
}

export const listRequests = defineOperation({
  name: 'request-log.list',
  summary: 'API requests made against these books in the last 30 days, newest first',
  access: 'all-scopes',
  method: 'GET',
  path: '/api-request-log',
  aliases: ['/request-log'],
  query: {
    status: z.number().int().min(100).max(599).optional(),
    method: z.enum(methods).optional(),
    errors: z.boolean().optional(),
    ...pageQuery(50),
  },
  output: z.array(listedEntry),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    let q = db.selectFrom('request_log');
    if (input.status !== undefined) q = q.where('status', '=', input.status);
    if (input.method) q = q.where('method', '=', input.method);
    if (input.errors !== undefined) q = q.where('status', input.errors ? '>=' : '<', 400);
    const { rows, meta } = await listPage(q, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), input);
    const keys = await keysOf(ctx, rows);
    return { data: rows.map((row) => listedView(row, keys.get(row.key_id ?? ''))), meta };
  },
});

export const getRequest = defineOperation({
  name: 'request-log.get',
  summary: 'One logged API request: its headers and bodies (secrets redacted), and the error when it failed',
  access: 'all-scopes',
  method: 'GET',
  path: '/api-request-log/{id}',
  aliases: ['/request-log/{id}'],
  params: { id: idOf('req') },
  output: detailSchema,
  async run(ctx, input) {
    const row = await found(orgOf(ctx).db.selectFrom('request_log').selectAll().where('id', '=', input.id).executeTakeFirst(), 'request', input.id);
    const keys = await keysOf(ctx, [row]);
    return { data: detailView(row, keys.get(row.key_id ?? '')) };
  },
});

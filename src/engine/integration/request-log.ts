/**
 * The API request log, read: the requests made against these books in the
 * last 30 days, newest first, and one request in detail. Written by the
 * HTTP adapter through request-log-writer.ts; a key with all scopes reads it.
 * An entry of refusals (403, 429) stands for `count` requests of one key to
 * one operation in one minute, shown with the first one's path and error.
 */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { found } from '../lookup.js';
import { idOf } from '../schema.js';
import { idOut, instant } from '../output.js';
import { listPage, pageMetaSchema, pageQuery } from '../pagination.js';
import type { RequestLogTable } from '../../store/tables.js';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** One entry of the log, as listed (also a bug report's apiContext). */
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

const detailSchema = requestLogEntry.extend({
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

const detailView = (row: RequestLogTable): Detail => ({ ...entryView(row), error: row.error === null ? null : (JSON.parse(row.error) as Detail['error']) });

export const listRequests = defineOperation({
  name: 'request-log.list',
  summary: 'API requests made against these books in the last 30 days, newest first',
  access: 'all-scopes',
  method: 'GET',
  path: '/request-log',
  query: {
    status: z.number().int().min(100).max(599).optional(),
    method: z.enum(methods).optional(),
    errors: z.boolean().optional(),
    ...pageQuery(50),
  },
  output: z.array(requestLogEntry),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    let q = db.selectFrom('request_log');
    if (input.status !== undefined) q = q.where('status', '=', input.status);
    if (input.method) q = q.where('method', '=', input.method);
    if (input.errors !== undefined) q = q.where('status', input.errors ? '>=' : '<', 400);
    const { rows, meta } = await listPage(q, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), input);
    return { data: rows.map(entryView), meta };
  },
});

export const getRequest = defineOperation({
  name: 'request-log.get',
  summary: 'One logged API request, with the error body when it failed',
  access: 'all-scopes',
  method: 'GET',
  path: '/request-log/{id}',
  params: { id: idOf('req') },
  output: detailSchema,
  async run(ctx, input) {
    const row = await found(orgOf(ctx).db.selectFrom('request_log').selectAll().where('id', '=', input.id).executeTakeFirst(), 'request', input.id);
    return { data: detailView(row) };
  },
});

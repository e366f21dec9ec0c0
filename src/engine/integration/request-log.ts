/**
 * The API request log, read: the requests made against these books in the
 * last 30 days, newest first, and one request in detail. Written by the
 * HTTP adapter through request-log-writer.ts; a key with all scopes reads it.
 */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { AppError } from '../errors.js';
import { idOf } from '../schema.js';
import { pageMeta, pageOffset, pageQuery } from '../pagination.js';
import type { RequestLogTable } from '../../store/tables.js';

function entryView(row: RequestLogTable, detail = false) {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    status: row.status,
    latencyMs: row.latency_ms,
    keyId: row.key_id,
    keyPrefix: row.key_prefix,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
    ...(detail ? { error: row.error === null ? null : (JSON.parse(row.error) as unknown) } : {}),
  };
}

export const listRequests = defineOperation({
  name: 'request-log.list',
  summary: 'API requests made against these books in the last 30 days, newest first',
  access: 'all-scopes',
  method: 'GET',
  path: '/request-log',
  query: {
    status: z.number().int().min(100).max(599).optional(),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
    errors: z.boolean().optional(),
    ...pageQuery(50),
  },
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    let q = db.selectFrom('request_log');
    if (input.status !== undefined) q = q.where('status', '=', input.status);
    if (input.method) q = q.where('method', '=', input.method);
    if (input.errors !== undefined) q = q.where('status', input.errors ? '>=' : '<', 400);
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(input.limit)
      .offset(pageOffset(input.page, input.limit))
      .execute();
    return { data: rows.map((r) => entryView(r)), meta: pageMeta(Number(total), input.page, input.limit) };
  },
});

export const getRequest = defineOperation({
  name: 'request-log.get',
  summary: 'One logged API request, with the error body when it failed',
  access: 'all-scopes',
  method: 'GET',
  path: '/request-log/{id}',
  params: { id: idOf('req') },
  async run(ctx, input) {
    const row = await orgOf(ctx).db.selectFrom('request_log').selectAll().where('id', '=', input.id).executeTakeFirst();
    if (!row) throw new AppError('not_found', `request ${input.id} not found`);
    return { data: entryView(row, true) };
  },
});

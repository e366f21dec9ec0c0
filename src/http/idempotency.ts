/**
 * Idempotency-Key on POST, PUT, PATCH and DELETE. The first response to a
 * key (2xx or 4xx) is stored with a fingerprint of the request, in the same
 * database transaction as the change, and replayed for 24 hours; a 5xx
 * stores nothing, so the key can be retried. The operation runs inside a
 * savepoint: a 4xx rolls its writes back and keeps only the record. The
 * write transaction also serialises concurrent requests with one key: the
 * second waits and then replays the first. Secrets shown once (an API key,
 * a webhook signing secret) are not stored: a replay shows them as null.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { AppError } from '../engine/errors.js';
import { timestamp, type Clock } from '../engine/clock.js';
import { orgOf, type Ctx, type Operation } from '../engine/operation.js';
import { appErrorOf } from '../store/driver-errors.js';

export const idempotencyHeader = 'idempotency-key';
export const maxKeyLength = 255;
const windowMs = 24 * 60 * 60 * 1000;

export interface Stored {
  readonly status: number;
  readonly body: unknown;
  readonly replayed: boolean;
}

/** The key of a request, or undefined; longer than 255 characters is 400. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (key === '' || key.length > maxKeyLength) {
    throw new AppError('validation_error', `Idempotency-Key must be 1 to ${maxKeyLength} characters`, 'Idempotency-Key');
  }
  return key;
}

/** JSON with object keys sorted, so the order a client writes fields in does not matter. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonical(body)}`).digest('hex');
}

/** The response as stored for replays: secrets shown once (a new API key, a signing secret) become null. */
function storable(body: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return body;
  const envelope = body as { data?: Record<string, unknown> };
  if (!envelope.data || typeof envelope.data !== 'object') return body;
  return { ...envelope, data: { ...envelope.data, ...Object.fromEntries(secrets.filter((f) => f in (envelope.data ?? {})).map((f) => [f, null])) } };
}

export interface IdempotentRequest {
  readonly key: string;
  readonly method: string;
  /** The path under /v1, so /v1 and /api/v1 share keys. */
  readonly path: string;
  readonly fingerprint: string;
}

/** Run `op` once per key: the stored response on a repeat, else the operation and its record in one transaction. */
export async function runIdempotent(ctx: Ctx, clock: Clock, op: Operation, input: unknown, request: IdempotentRequest): Promise<Stored> {
  const books = orgOf(ctx);
  return books.write(async (trx) => {
    const now = clock.now();
    await trx.deleteFrom('idempotency_keys').where('created_at', '<', new Date(now.getTime() - windowMs).toISOString()).execute();
    const found = await trx.selectFrom('idempotency_keys').selectAll().where('key', '=', request.key).executeTakeFirst();
    if (found) {
      if (found.fingerprint !== request.fingerprint) {
        throw new AppError(
          'conflict',
          `Idempotency-Key ${request.key} was first used for ${found.method} ${found.path} with another body; use a new key for a different request`,
        );
      }
      return { status: found.status, body: JSON.parse(found.response) as unknown, replayed: true };
    }
    await sql`savepoint idempotent_operation`.execute(trx);
    let status: number;
    let body: unknown;
    try {
      const result = await op.run({ ...ctx, books: { ...books, db: trx, write: (work) => work(trx) } }, input);
      status = op.status;
      body = result.meta === undefined ? { success: true, data: result.data } : { success: true, data: result.data, meta: result.meta };
    } catch (e) {
      const error = appErrorOf(e);
      if (error.status >= 500) throw e;
      await sql`rollback to savepoint idempotent_operation`.execute(trx);
      status = error.status;
      body = { success: false, error: error.toJSON() };
    }
    await sql`release savepoint idempotent_operation`.execute(trx);
    await trx
      .insertInto('idempotency_keys')
      .values({
        key: request.key,
        fingerprint: request.fingerprint,
        method: request.method,
        path: request.path,
        status,
        response: JSON.stringify(storable(body, op.secrets)),
        created_at: timestamp(clock),
      })
      .execute();
    return { status, body, replayed: false };
  });
}

/**
 * Idempotency keys: an operation runs once per key (within 24 hours) and
 * its first 2xx or 4xx response is stored and replayed; a 5xx stores
 * nothing, so the key can be retried. A request first reserves its key in
 * a short write (a later request with the key waits for it, then replays
 * its response); the operation's calls to other services (`external`, an
 * e-mail) run next with no transaction open; then its writes and the
 * stored response commit in one transaction, so a kill -9 leaves either
 * both or neither. Its writes run inside a savepoint: a 4xx rolls them
 * back and keeps only the record. Secrets shown once (an API key, a
 * webhook signing secret) are not stored: a replay shows them as null.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { orgOf, type Ctx, type Operation, type OrgScope, type Result } from '../operation.js';
import { appErrorOf } from '../../store/driver-errors.js';
import type { OrgDb } from '../../store/tables.js';

export const windowMs = 24 * 60 * 60 * 1000;
/** A key reserved longer ago than this is taken over: the request holding it is presumed dead (its process killed). */
export const staleMs = 5 * 60 * 1000;
/** How long, in all, a request waits for another holding its key before answering 409. */
export const waitLimitMs = 30_000;

export interface IdempotentRequest {
  readonly key: string;
  readonly method: string;
  /** The path under /v1, so /v1 and /api/v1 share keys. */
  readonly path: string;
  readonly fingerprint: string;
}

/** What an operation came to: its result, or the refusal or failure it threw. */
export type Outcome = { readonly result: Result } | { readonly error: AppError };

/** The response body the adapter sends for an outcome (the API's envelope). */
export type Render = (outcome: Outcome) => unknown;

export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly replayed: boolean;
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

/** The fingerprint of a request: a key reused for another one is refused. */
export function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonical(body)}`).digest('hex');
}

/** The result as stored for replays: secrets shown once (a new API key, a signing secret) become null. */
function storable(result: Result, secrets: readonly string[]): Result {
  const data = result.data;
  if (secrets.length === 0 || data === null || typeof data !== 'object') return result;
  const hidden = Object.fromEntries(secrets.filter((f) => f in data).map((f) => [f, null]));
  return { ...result, data: { ...data, ...hidden } };
}

type Claim = { readonly kind: 'reserved' } | { readonly kind: 'busy' } | { readonly kind: 'replay'; readonly status: number; readonly response: string };

/**
 * In one short write: forget expired records, then replay a finished
 * record, report one still held by a live request, or reserve the key
 * (taking over a reservation left stale).
 */
function reserve(books: OrgScope, ctx: Ctx, request: IdempotentRequest, holder: string): Promise<Claim> {
  return books.write(async (trx): Promise<Claim> => {
    const now = ctx.clock.now().getTime();
    await trx.deleteFrom('idempotency_keys').where('created_at', '<', new Date(now - windowMs).toISOString()).execute();
    const found = await trx.selectFrom('idempotency_keys').selectAll().where('key', '=', request.key).executeTakeFirst();
    if (found) {
      if (found.fingerprint !== request.fingerprint) {
        throw new AppError(
          'conflict',
          `Idempotency-Key ${request.key} was first used for ${found.method} ${found.path} with another body; use a new key for a different request`,
        );
      }
      if (found.reserved_by === null) return { kind: 'replay', status: found.status, response: found.response };
      if (Date.parse(found.created_at) > now - staleMs) return { kind: 'busy' };
      await trx.updateTable('idempotency_keys').set({ reserved_by: holder, created_at: timestamp(ctx.clock) }).where('key', '=', request.key).execute();
      return { kind: 'reserved' };
    }
    await trx
      .insertInto('idempotency_keys')
      .values({
        key: request.key,
        fingerprint: request.fingerprint,
        method: request.method,
        path: request.path,
        status: 0,
        response: '',
        created_at: timestamp(ctx.clock),
        reserved_by: holder,
      })
      .execute();
    return { kind: 'reserved' };
  });
}

/** Whether the key is still held by a live request other than this one (a read: waiting costs no write). */
async function heldElsewhere(db: Kysely<OrgDb>, ctx: Ctx, key: string): Promise<boolean> {
  const found = await db.selectFrom('idempotency_keys').select(['reserved_by', 'created_at']).where('key', '=', key).executeTakeFirst();
  return found !== undefined && found.reserved_by !== null && Date.parse(found.created_at) > ctx.clock.now().getTime() - staleMs;
}

/** Reserve the key, waiting while another request holds it; a replay when one has finished meanwhile. */
async function claim(books: OrgScope, ctx: Ctx, request: IdempotentRequest, holder: string): Promise<Claim> {
  let waited = 0;
  for (let round = 0; ; round++) {
    if (round === 0 || !(await heldElsewhere(books.db, ctx, request.key))) {
      const claimed = await reserve(books, ctx, request, holder);
      if (claimed.kind !== 'busy') return claimed;
    }
    if (waited >= waitLimitMs) {
      throw new AppError('conflict', `a request with Idempotency-Key ${request.key} is still in progress; retry it later`);
    }
    const pause = Math.min(250, 5 * 2 ** round);
    await sleep(pause);
    waited += pause;
  }
}

/** Store the response of the request holding the key; false when it no longer holds it (taken over as stale). */
async function finish(trx: Kysely<OrgDb>, ctx: Ctx, key: string, holder: string, status: number, response: string): Promise<boolean> {
  const updated = await trx
    .updateTable('idempotency_keys')
    .set({ status, response, created_at: timestamp(ctx.clock), reserved_by: null })
    .where('key', '=', key)
    .where('reserved_by', '=', holder)
    .executeTakeFirst();
  return updated.numUpdatedRows === 1n;
}

const takenOver = (key: string) =>
  new AppError('conflict', `Idempotency-Key ${key} was taken over by a later request after this one ran past ${staleMs / 60_000} minutes`);

/**
 * Run `op` once per key: the stored response on a repeat, else the
 * operation (its external calls first, outside any transaction) and its
 * record. `render` gives the response body of an outcome.
 */
export async function runIdempotent(ctx: Ctx, op: Operation, input: unknown, request: IdempotentRequest, render: Render): Promise<Answer> {
  const books = orgOf(ctx);
  const holder = randomUUID();
  const claimed = await claim(books, ctx, request, holder);
  if (claimed.kind === 'replay') return { status: claimed.status, body: JSON.parse(claimed.response) as unknown, replayed: true };
  try {
    if (op.external) {
      try {
        await op.external(ctx, input);
      } catch (e) {
        const error = appErrorOf(e);
        if (error.status >= 500) throw e;
        const body = render({ error });
        const stored = await books.write((trx) => finish(trx, ctx, request.key, holder, error.status, JSON.stringify(body)));
        if (!stored) throw takenOver(request.key);
        return { status: error.status, body, replayed: false };
      }
    }
    return await books.write(async (trx) => {
      await sql`savepoint idempotent_operation`.execute(trx);
      let outcome: Outcome;
      try {
        outcome = { result: await op.local({ ...ctx, books: { ...books, db: trx, write: (work) => work(trx) } }, input) };
      } catch (e) {
        const error = appErrorOf(e);
        if (error.status >= 500) throw e;
        await sql`rollback to savepoint idempotent_operation`.execute(trx);
        outcome = { error };
      }
      await sql`release savepoint idempotent_operation`.execute(trx);
      const status = 'result' in outcome ? op.status : outcome.error.status;
      const stored = 'result' in outcome ? { result: storable(outcome.result, op.secrets) } : outcome;
      if (!(await finish(trx, ctx, request.key, holder, status, JSON.stringify(render(stored))))) throw takenOver(request.key);
      return { status, body: render(outcome), replayed: false };
    });
  } catch (e) {
    // A failure (5xx) stores nothing: the key is free for a retry.
    await books
      .write((trx) => trx.deleteFrom('idempotency_keys').where('key', '=', request.key).where('reserved_by', '=', holder).execute())
      .catch(() => undefined);
    throw e;
  }
}

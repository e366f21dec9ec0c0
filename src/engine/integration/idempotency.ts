/**
 * Idempotency keys: an operation runs once per key (within 24 hours) and
 * its first 2xx or 4xx response is stored and replayed; a 5xx stores
 * nothing, so the key can be retried. The operation's writes and its
 * stored response commit in one transaction, so a kill -9 leaves either
 * both or neither; its writes run inside a savepoint, which a 4xx rolls
 * back to keep only the record. Secrets shown once (an API key, a webhook
 * signing secret) are not stored: a replay shows them as null.
 *
 * An operation without calls to other services does it all in that one
 * transaction, which also queues concurrent requests with one key. One
 * with an `external` step (an e-mail) must not hold a transaction while
 * it calls out: it first reserves the key in a short write (a later
 * request with the key waits for it, then replays its response; a
 * reservation left by a killed process is taken over once stale), makes
 * its calls with no transaction open, then commits as above.
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
  /** The operation's route under /v1 with its parameters, however the client spelled the path, so a retry through /api/v1 or a trailing slash shares the key. */
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

/**
 * JSON with object keys sorted, so the order a client writes fields in does
 * not matter. A stack, not recursion: JSON.parse takes nesting deeper than
 * the call stack would, and such a body is refused by validation (400), not
 * here.
 */
function canonical(value: unknown): string {
  const out: string[] = [];
  type Step = { readonly text: string } | { readonly value: unknown };
  const steps: Step[] = [{ value }];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if ('text' in step) {
      out.push(step.text);
      continue;
    }
    const v = step.value;
    let parts: Step[];
    if (Array.isArray(v))
      parts = [{ text: '[' }, ...v.flatMap((item, i): Step[] => (i === 0 ? [{ value: item }] : [{ text: ',' }, { value: item }])), { text: ']' }];
    else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      parts = [
        { text: '{' },
        ...entries.flatMap(([k, item], i): Step[] => [{ text: `${i === 0 ? '' : ','}${JSON.stringify(k)}:` }, { value: item }]),
        { text: '}' },
      ];
    } else {
      out.push(JSON.stringify(v ?? null));
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) steps.push(parts[i]!);
  }
  return out.join('');
}

/** The fingerprint of a request: a key reused for another one (another method, path, query or body) is refused. */
export function fingerprintOf(method: string, path: string, body: unknown, query: Readonly<Record<string, unknown>> = {}): string {
  // Without a query the text is as it always was, so keys recorded before the query counted still replay.
  const asked = Object.keys(query).length === 0 ? '' : `?${canonical(query)}`;
  return createHash('sha256')
    .update(`${method} ${path}${asked}\n${canonical(body)}`)
    .digest('hex');
}

/** The result as stored for replays: secrets shown once (a new API key, a signing secret) become null. */
function storable(result: Result, secrets: readonly string[]): Result {
  const data = result.data;
  if (secrets.length === 0 || data === null || typeof data !== 'object') return result;
  const hidden = Object.fromEntries(secrets.filter((f) => f in data).map((f) => [f, null]));
  return { ...result, data: { ...data, ...hidden } };
}

type Found = { readonly kind: 'free' } | { readonly kind: 'busy' } | { readonly kind: 'replay'; readonly status: number; readonly response: string };

/**
 * Forget expired records and look the key up: a finished record to
 * replay, one still held by a live request, or a free key (a reservation
 * left stale is removed, so the key is taken over).
 */
async function lookUp(trx: Kysely<OrgDb>, ctx: Ctx, request: IdempotentRequest): Promise<Found> {
  const now = ctx.clock.now().getTime();
  await trx
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now - windowMs).toISOString())
    .execute();
  const found = await trx.selectFrom('idempotency_keys').selectAll().where('key', '=', request.key).executeTakeFirst();
  if (!found) return { kind: 'free' };
  if (found.fingerprint !== request.fingerprint) {
    throw new AppError(
      'conflict',
      `Idempotency-Key ${request.key} was first used for ${found.method} ${found.path}${found.method === request.method && found.path === request.path ? ' with another query or body' : ''}; use a new key for a different request`,
    );
  }
  if (found.reserved_by === null) return { kind: 'replay', status: found.status, response: found.response };
  if (Date.parse(found.created_at) > now - staleMs) return { kind: 'busy' };
  await trx.deleteFrom('idempotency_keys').where('key', '=', request.key).execute();
  return { kind: 'free' };
}

/** The record of a key: its response once stored, or the request holding it (`reservedBy`) while it runs. */
function record(ctx: Ctx, request: IdempotentRequest, reservedBy: string | null, status = 0, response = '') {
  return {
    key: request.key,
    fingerprint: request.fingerprint,
    method: request.method,
    path: request.path,
    status,
    response,
    created_at: timestamp(ctx.clock),
    reserved_by: reservedBy,
  };
}

/**
 * Reserve the key for `holder` (free: it is now reserved), waiting while
 * another request holds it; a replay when that one has finished meanwhile.
 */
async function reserve(books: OrgScope, ctx: Ctx, request: IdempotentRequest, holder: string): Promise<Found> {
  let waited = 0;
  let pause = 5;
  for (;;) {
    const found = await books.write(async (trx): Promise<Found> => {
      const found = await lookUp(trx, ctx, request);
      if (found.kind === 'free')
        await trx
          .insertInto('idempotency_keys')
          .values(record(ctx, request, holder))
          .execute();
      return found;
    });
    if (found.kind !== 'busy') return found;
    // Wait with reads, not writes, until the holder finishes (or its reservation goes stale).
    do {
      if (waited >= waitLimitMs) throw new AppError('conflict', `a request with Idempotency-Key ${request.key} is still in progress; retry it later`);
      await sleep(pause);
      waited += pause;
      pause = Math.min(250, pause * 2);
    } while (await heldElsewhere(books.db, ctx, request.key));
  }
}

/** Whether a live request holds the key (a read: waiting costs no write). */
async function heldElsewhere(db: Kysely<OrgDb>, ctx: Ctx, key: string): Promise<boolean> {
  const found = await db.selectFrom('idempotency_keys').select(['reserved_by', 'created_at']).where('key', '=', key).executeTakeFirst();
  return found !== undefined && found.reserved_by !== null && Date.parse(found.created_at) > ctx.clock.now().getTime() - staleMs;
}

interface Ran {
  readonly answer: Answer;
  /** The response as stored for replays. */
  readonly stored: string;
}

/** The response to an outcome, and its stored text (secrets shown once left out). */
function answerOf(op: Operation, outcome: Outcome, render: Render): Ran {
  const status = 'result' in outcome ? op.status : outcome.error.status;
  const stored = 'result' in outcome ? { result: storable(outcome.result, op.secrets) } : outcome;
  return { answer: { status, body: render(outcome), replayed: false }, stored: JSON.stringify(render(stored)) };
}

/** The operation's own work inside the open transaction `trx`, in a savepoint that a 4xx rolls back; a 5xx throws. */
async function runLocal(trx: Kysely<OrgDb>, ctx: Ctx, books: OrgScope, op: Operation, input: unknown, render: Render): Promise<Ran> {
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
  return answerOf(op, outcome, render);
}

/** Store the response of the request holding the key; a 409 when it no longer holds it (taken over as stale). */
async function finish(trx: Kysely<OrgDb>, ctx: Ctx, request: IdempotentRequest, holder: string, ran: Ran): Promise<Answer> {
  const updated = await trx
    .updateTable('idempotency_keys')
    .set({ status: ran.answer.status, response: ran.stored, created_at: timestamp(ctx.clock), reserved_by: null })
    .where('key', '=', request.key)
    .where('reserved_by', '=', holder)
    .executeTakeFirst();
  if (updated.numUpdatedRows !== 1n) {
    throw new AppError('conflict', `Idempotency-Key ${request.key} was taken over by a later request after this one ran past ${staleMs / 60_000} minutes`);
  }
  return ran.answer;
}

const replay = (found: Extract<Found, { kind: 'replay' }>): Answer => ({ status: found.status, body: JSON.parse(found.response) as unknown, replayed: true });

/**
 * Run `op` once per key: the stored response on a repeat, else the
 * operation and its record. `render` gives the response body of an outcome.
 */
export async function runIdempotent(ctx: Ctx, op: Operation, input: unknown, request: IdempotentRequest, render: Render): Promise<Answer> {
  const books = orgOf(ctx);
  if (!op.external) {
    // Nothing to call outside: look up, run and record in one transaction, which also queues requests with one key.
    const done = await books.write(async (trx) => {
      const found = await lookUp(trx, ctx, request);
      if (found.kind !== 'free') return found;
      const ran = await runLocal(trx, ctx, books, op, input, render);
      await trx
        .insertInto('idempotency_keys')
        .values(record(ctx, request, null, ran.answer.status, ran.stored))
        .execute();
      return ran.answer;
    });
    if (!('kind' in done)) return done;
    if (done.kind === 'replay') return replay(done);
    // busy: another request with this fingerprint holds a reservation, which only an external step makes; wait as it would.
  }
  const holder = randomUUID();
  const found = await reserve(books, ctx, request, holder);
  if (found.kind === 'replay') return replay(found);
  try {
    try {
      await op.external?.(ctx, input);
    } catch (e) {
      const error = appErrorOf(e);
      if (error.status >= 500) throw e;
      const ran = answerOf(op, { error }, render);
      return await books.write((trx) => finish(trx, ctx, request, holder, ran));
    }
    return await books.write(async (trx) => finish(trx, ctx, request, holder, await runLocal(trx, ctx, books, op, input, render)));
  } catch (e) {
    // A failure (5xx) stores nothing: the key is free for a retry.
    await books
      .write((trx) => trx.deleteFrom('idempotency_keys').where('key', '=', request.key).where('reserved_by', '=', holder).execute())
      .catch(() => undefined);
    throw e;
  }
}

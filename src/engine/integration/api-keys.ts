/**
 * API keys: `sk_live_` or `sk_test_` followed by 32 random base62
 * characters (about 190 bits). Only a SHA-256 hash is stored, and a key is
 * found by looking its hash up, never by comparing plain text. A key
 * belongs to one mode: test keys see and make only test keys.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineOperation, type Ctx, type Principal } from '../operation.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { timestamp, type Clock } from '../clock.js';
import { idOf } from '../schema.js';
import { pageMeta, pageOffset, pageQuery, sortQuery } from '../pagination.js';
import { isScope, scopeDescriptions, scopes, type Scope } from '../scopes.js';
import type { ApiKeysTable, PlatformDb } from '../../store/tables.js';
import type { Mode } from '../../store/store.js';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const keyShape = /^sk_(live|test)_[0-9A-Za-z]{32}$/;

export function generateKey(mode: Mode): string {
  let body = '';
  while (body.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 32) body += base62[byte % 62]; // 248 = 4 × 62: no modulo bias
    }
  }
  return `sk_${mode}_${body}`;
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function keyView(row: ApiKeysTable) {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    prefix: row.prefix,
    keyPreview: `${row.prefix}…${row.last_four}`,
    scopes: JSON.parse(row.scopes) as Scope[],
    isActive: row.revoked_at === null,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    replacedBy: row.replaced_by,
  };
}

export interface NewKey {
  readonly organisationId: string;
  readonly mode: Mode;
  readonly name: string;
  readonly scopes: readonly Scope[];
}

/** Insert a key and return its record with the full key, the only time it is seen. */
export async function insertKey(trx: Kysely<PlatformDb>, clock: Clock, spec: NewKey) {
  const key = generateKey(spec.mode);
  const row: ApiKeysTable = {
    id: newId('key', clock.now()),
    organisation_id: spec.organisationId,
    mode: spec.mode,
    name: spec.name,
    prefix: key.slice(0, 8),
    last_four: key.slice(-4),
    key_hash: hashKey(key),
    scopes: JSON.stringify(scopes.filter((s) => spec.scopes.includes(s))),
    created_at: timestamp(clock),
    revoked_at: null,
    replaced_by: null,
  };
  await trx.insertInto('api_keys').values(row).execute();
  return { ...keyView(row), key };
}

/** The principal a bearer key stands for; 401 for a malformed, unknown or revoked key. */
export async function authenticate(db: Kysely<PlatformDb>, key: string): Promise<Principal> {
  if (!keyShape.test(key)) throw new AppError('unauthorized', 'malformed API key: expected sk_live_… or sk_test_…');
  const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hashKey(key)).executeTakeFirst();
  if (!row) throw new AppError('unauthorized', 'invalid API key');
  if (row.revoked_at !== null) throw new AppError('unauthorized', 'this API key has been revoked');
  return {
    organisationId: row.organisation_id,
    mode: row.mode,
    scopes: (JSON.parse(row.scopes) as string[]).filter(isScope),
    keyId: row.id,
    actor: { id: row.id, name: row.name },
  };
}

function callerOf(ctx: Ctx): Principal {
  if (!ctx.principal) throw new AppError('unauthorized', 'an API key is required');
  return ctx.principal;
}

/** A key of the caller's organisation and mode; any other is 404. */
async function ownKey(db: Kysely<PlatformDb>, caller: Principal, id: string): Promise<ApiKeysTable> {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', id)
    .where('organisation_id', '=', caller.organisationId)
    .where('mode', '=', caller.mode)
    .executeTakeFirst();
  if (!row) throw notFound('API key', id);
  return row;
}

const scopeList = z
  .array(z.string())
  .min(1)
  .superRefine((list, issue) => {
    const unknown = list.filter((s) => !isScope(s));
    if (unknown.length > 0) issue.addIssue({ code: 'custom', message: `contains unknown scopes: ${unknown.join(', ')}` });
  })
  .transform((list) => list.filter(isScope));

export const listKeys = defineOperation({
  name: 'keys.list',
  summary: 'List the API keys of this mode, newest first unless sorted, revoked ones included (never the key itself)',
  access: 'all-scopes',
  method: 'GET',
  path: '/api-keys',
  query: { ...pageQuery(20), ...sortQuery(['createdAt', 'name']) },
  async run(ctx, input) {
    const column = ({ createdAt: 'created_at', name: 'name' } as const)[input.sort.field];
    const caller = callerOf(ctx);
    const base = ctx.platform.db
      .selectFrom('api_keys')
      .where('organisation_id', '=', caller.organisationId)
      .where('mode', '=', caller.mode);
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy(column, input.sort.direction)
      .orderBy('id', input.sort.direction)
      .limit(input.limit)
      .offset(pageOffset(input.page, input.limit))
      .execute();
    return { data: rows.map(keyView), meta: pageMeta(Number(total), input.page, input.limit) };
  },
});

export const listScopes = defineOperation({
  name: 'keys.scopes',
  summary: 'List the scopes a key can hold',
  access: 'any-key',
  method: 'GET',
  path: '/api-keys/scopes',
  async run() {
    return { data: { scopes: scopes.map((scope) => ({ scope, description: scopeDescriptions[scope] })) } };
  },
});

export const createKey = defineOperation({
  name: 'keys.create',
  secrets: ['key'],
  summary: 'Create an API key of the caller\'s mode; the full key is in the response once only',
  description: 'Without scopes the key has all 17. The key field of the response is never shown again.',
  access: 'all-scopes',
  method: 'POST',
  path: '/api-keys',
  status: 201,
  body: {
    name: z.string().trim().min(1).max(100).default('API key'),
    scopes: scopeList.optional(),
  },
  async run(ctx, input) {
    const caller = callerOf(ctx);
    const created = await ctx.platform.write((trx) =>
      insertKey(trx, ctx.clock, {
        organisationId: caller.organisationId,
        mode: caller.mode,
        name: input.name,
        scopes: input.scopes ?? scopes,
      }),
    );
    return { data: created };
  },
});

export const rotateKey = defineOperation({
  name: 'keys.rotate',
  secrets: ['key'],
  summary: 'Replace a key with a new one of the same name and scopes, revoking the old one in the same step',
  access: 'all-scopes',
  method: 'POST',
  path: '/api-keys/{id}/rotate',
  status: 201,
  params: { id: idOf('key') },
  body: {},
  async run(ctx, input) {
    const caller = callerOf(ctx);
    const created = await ctx.platform.write(async (trx) => {
      const old = await ownKey(trx, caller, input.id);
      if (old.revoked_at !== null) throw new AppError('conflict', `API key ${old.id} is revoked and cannot be rotated`);
      const fresh = await insertKey(trx, ctx.clock, {
        organisationId: old.organisation_id,
        mode: old.mode,
        name: old.name,
        scopes: JSON.parse(old.scopes) as Scope[],
      });
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: timestamp(ctx.clock), replaced_by: fresh.id })
        .where('id', '=', old.id)
        .execute();
      return { ...fresh, replaces: old.id };
    });
    return { data: created };
  },
});

export const revokeKey = defineOperation({
  name: 'keys.revoke',
  summary: 'Revoke a key; later requests with it get 401 at once',
  access: 'all-scopes',
  method: 'DELETE',
  path: '/api-keys/{id}',
  params: { id: idOf('key') },
  async run(ctx, input) {
    const caller = callerOf(ctx);
    const revokedAt = timestamp(ctx.clock);
    await ctx.platform.write(async (trx) => {
      const row = await ownKey(trx, caller, input.id);
      if (row.revoked_at !== null) throw new AppError('conflict', `API key ${row.id} is already revoked`);
      await trx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', row.id).execute();
    });
    return { data: { id: input.id, revoked: true, revokedAt } };
  },
});

export const renameKey = defineOperation({
  name: 'keys.rename',
  summary: "Change a key's name (its scopes cannot change: rotate or create another key)",
  access: 'all-scopes',
  method: 'PATCH',
  path: '/api-keys/{id}',
  params: { id: idOf('key') },
  body: { name: z.string().trim().min(1).max(100) },
  async run(ctx, input) {
    const caller = callerOf(ctx);
    const row = await ctx.platform.write(async (trx) => {
      const row = await ownKey(trx, caller, input.id);
      if (row.revoked_at !== null) throw new AppError('conflict', `API key ${row.id} is revoked and cannot be renamed`);
      await trx.updateTable('api_keys').set({ name: input.name }).where('id', '=', row.id).execute();
      return { ...row, name: input.name };
    });
    return { data: keyView(row) };
  },
});

/**
 * API keys: `sk_live_` or `sk_test_` followed by 32 random base62
 * characters (about 190 bits). Only a SHA-256 hash is stored, and a key is
 * found by looking its hash up, never by comparing plain text. A key
 * belongs to one mode: test keys see and make only test keys.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Ctx, Principal } from '../operation.js';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { newId } from '../ids.js';
import { timestamp, type Clock } from '../clock.js';
import { idOut, instant } from '../output.js';
import { isScope, scopes, type Scope } from '../scopes.js';
import { modes } from '../../store/data-dir.js';
import type { ApiKeysTable, PlatformDb } from '../../store/tables.js';
import type { DbHandle, Mode } from '../../store/store.js';
import { precompiled } from '../../store/precompiled.js';

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

/** An API key as the API shows it: never the key itself, nor its hash. */
export const keySchema = z.strictObject({
  id: idOut('key'),
  name: z.string(),
  mode: z.enum(modes).describe('live keys open the live books, test keys the test books'),
  prefix: z.string().describe('the first 8 characters of the key: sk_live_ or sk_test_'),
  keyPreview: z.string().describe('the prefix and the last four characters, to recognise a key by'),
  scopes: z.array(z.enum(scopes)),
  isActive: z.boolean().describe('false once revoked'),
  createdAt: instant(),
  revokedAt: instant().nullable(),
  replacedBy: idOut('key').nullable().describe('the key that replaced it, when it was rotated'),
});
export type ApiKey = z.output<typeof keySchema>;

/** A key just made: its record and the key itself, shown this once. */
export const newKeySchema = keySchema.extend({
  key: z
    .string()
    .nullable()
    .describe('the full key, shown in this response only; null when the response is replayed for a repeated Idempotency-Key, since the key is never stored'),
});
export type CreatedKey = ApiKey & { readonly key: string };

export function keyView(row: ApiKeysTable): ApiKey {
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
export async function insertKey(trx: Kysely<PlatformDb>, clock: Clock, spec: NewKey): Promise<CreatedKey> {
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
  return principalOfHash(db, hashKey(key));
}

const keyByHash = precompiled((db: Kysely<PlatformDb>, hash: string) => db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash));

async function principalOfHash(db: Kysely<PlatformDb>, hash: string): Promise<Principal> {
  const row = await keyByHash.first(db, hash);
  if (!row) throw new AppError('unauthorized', 'invalid API key');
  if (row.revoked_at !== null) throw new AppError('unauthorized', 'this API key has been revoked');
  return Object.freeze({
    organisationId: row.organisation_id,
    mode: row.mode,
    scopes: Object.freeze((JSON.parse(row.scopes) as string[]).filter(isScope)),
    keyId: row.id,
    actor: Object.freeze({ id: row.id, name: row.name }),
  });
}

/** How many keys a KeyCache holds before it starts again (each is a hash and a principal: a few hundred bytes). */
const keyCacheLimit = 10_000;

/**
 * `authenticate` for a server: the keys it has seen are kept by their hash,
 * so that a request costs no lookup in the platform database. Everything
 * kept is dropped whenever the platform database may have changed (its
 * change stamp: a commit by another process, such as `acct keys revoke`, or
 * a write of this one), so that a revoked or renamed key is seen as such on
 * the very next request. Unknown and revoked keys are not kept.
 */
export class KeyCache {
  readonly #platform: DbHandle<PlatformDb>;
  readonly #principals = new Map<string, Principal>();
  #stamp = '';

  constructor(platform: DbHandle<PlatformDb>) {
    this.#platform = platform;
  }

  async authenticate(key: string): Promise<Principal> {
    if (!keyShape.test(key)) throw new AppError('unauthorized', 'malformed API key: expected sk_live_… or sk_test_…');
    const stamp = this.#platform.changeStamp();
    if (stamp !== this.#stamp) {
      this.#principals.clear();
      this.#stamp = stamp;
    }
    const hash = hashKey(key);
    const kept = this.#principals.get(hash);
    if (kept) return kept;
    const principal = await principalOfHash(this.#platform.db, hash);
    // Read under the stamp taken before: if another request has since seen a newer one, this read may predate it.
    if (this.#stamp === stamp) {
      if (this.#principals.size >= keyCacheLimit) this.#principals.clear();
      this.#principals.set(hash, principal);
    }
    return principal;
  }

  /** Forget every key kept; how many there were. */
  clear(): number {
    const held = this.#principals.size;
    this.#principals.clear();
    return held;
  }
}

export function callerOf(ctx: Ctx): Principal {
  if (!ctx.principal) throw new AppError('unauthorized', 'an API key is required');
  return ctx.principal;
}

/** A key of the caller's organisation and mode; any other is 404. */
function ownKey(db: Kysely<PlatformDb>, caller: Principal, id: string): Promise<ApiKeysTable> {
  return found(
    db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .where('organisation_id', '=', caller.organisationId)
      .where('mode', '=', caller.mode)
      .executeTakeFirst(),
    'API key',
    id,
  );
}

/** A new key of the same organisation, mode, name and scopes, the old one revoked in the same step (409 if it already is). */
export async function replaceKey(trx: Kysely<PlatformDb>, clock: Clock, caller: Principal, id: string): Promise<CreatedKey & { readonly replaces: string }> {
  const old = await ownKey(trx, caller, id);
  if (old.revoked_at !== null) throw new AppError('conflict', `API key ${old.id} is revoked and cannot be rotated`);
  const fresh = await insertKey(trx, clock, {
    organisationId: old.organisation_id,
    mode: old.mode,
    name: old.name,
    scopes: JSON.parse(old.scopes) as Scope[],
  });
  await trx
    .updateTable('api_keys')
    .set({ revoked_at: timestamp(clock), replaced_by: fresh.id })
    .where('id', '=', old.id)
    .execute();
  return { ...fresh, replaces: old.id };
}

/** Revoke one of the caller's keys (409 if it already is); when it was revoked. */
export async function revokeOwnKey(trx: Kysely<PlatformDb>, clock: Clock, caller: Principal, id: string): Promise<string> {
  const row = await ownKey(trx, caller, id);
  if (row.revoked_at !== null) throw new AppError('conflict', `API key ${row.id} is already revoked`);
  const revokedAt = timestamp(clock);
  await trx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', row.id).execute();
  return revokedAt;
}

export async function renameOwnKey(trx: Kysely<PlatformDb>, caller: Principal, id: string, name: string): Promise<ApiKey> {
  const row = await ownKey(trx, caller, id);
  if (row.revoked_at !== null) throw new AppError('conflict', `API key ${row.id} is revoked and cannot be renamed`);
  await trx.updateTable('api_keys').set({ name }).where('id', '=', row.id).execute();
  return keyView({ ...row, name });
}

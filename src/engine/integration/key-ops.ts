/** The API key operations: /api-keys, managed by a key with all scopes (any key may list the scopes). */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { idOf } from '../schema.js';
import { idOut, instant } from '../output.js';
import { listPage, pageMetaSchema, pageQuery, sortQuery } from '../pagination.js';
import { isScope, scopeDescriptions, scopes } from '../scopes.js';
import { callerOf, insertKey, keySchema, keyView, newKeySchema, renameOwnKey, replaceKey, revokeOwnKey } from './api-keys.js';

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
  output: z.array(keySchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const column = ({ createdAt: 'created_at', name: 'name' } as const)[input.sort.field];
    const caller = callerOf(ctx);
    const base = ctx.platform.db.selectFrom('api_keys').where('organisation_id', '=', caller.organisationId).where('mode', '=', caller.mode);
    const { rows, meta } = await listPage(base, (q) => q.selectAll().orderBy(column, input.sort.direction).orderBy('id', input.sort.direction), input);
    return { data: rows.map(keyView), meta };
  },
});

export const listScopes = defineOperation({
  name: 'keys.scopes',
  summary: 'List the scopes a key can hold',
  access: 'any-key',
  method: 'GET',
  path: '/api-keys/scopes',
  output: z.strictObject({ scopes: z.array(z.strictObject({ scope: z.enum(scopes), description: z.string() })) }),
  run() {
    return Promise.resolve({ data: { scopes: scopes.map((scope) => ({ scope, description: scopeDescriptions[scope] })) } });
  },
});

export const createKey = defineOperation({
  name: 'keys.create',
  secrets: ['key'],
  summary: "Create an API key of the caller's mode; the full key is in the response once only",
  description: 'Without scopes the key has all 17. The key field of the response is never shown again.',
  access: 'all-scopes',
  method: 'POST',
  path: '/api-keys',
  status: 201,
  body: {
    name: z.string().trim().min(1).max(100).default('API key'),
    scopes: scopeList.optional(),
  },
  output: newKeySchema,
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
  output: newKeySchema.extend({ replaces: idOut('key').describe('the key it replaced, now revoked') }),
  async run(ctx, input) {
    const caller = callerOf(ctx);
    return { data: await ctx.platform.write((trx) => replaceKey(trx, ctx.clock, caller, input.id)) };
  },
});

export const revokeKey = defineOperation({
  name: 'keys.revoke',
  summary: 'Revoke a key; later requests with it get 401 at once',
  access: 'all-scopes',
  method: 'DELETE',
  path: '/api-keys/{id}',
  params: { id: idOf('key') },
  output: z.strictObject({ id: idOut('key'), revoked: z.literal(true), revokedAt: instant() }),
  async run(ctx, input) {
    const caller = callerOf(ctx);
    const revokedAt = await ctx.platform.write((trx) => revokeOwnKey(trx, ctx.clock, caller, input.id));
    return { data: { id: input.id, revoked: true as const, revokedAt } };
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
  output: keySchema,
  async run(ctx, input) {
    const caller = callerOf(ctx);
    return { data: await ctx.platform.write((trx) => renameOwnKey(trx, caller, input.id, input.name)) };
  },
});

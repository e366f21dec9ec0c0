/**
 * The scope matrix over every operation of the registry: for each one, a
 * key holding exactly one of the 17 scopes is refused with 403 naming the
 * scope unless it is the one the operation needs; a key with every scope
 * gets through; no key, or a revoked one, is 401. Bodies are minimal and
 * ids well formed but unknown, so a permitted call may well end in 400,
 * 404 or 422: only 401 and 403 would mean the key was refused.
 */
import t from 'tap';
import type { Test } from 'tap';
import type { z } from 'zod';
import { newBooks, serveBooks, type Api, type Books, type Reply } from '../helpers/index.js';
import { operations } from '../../src/engine/registry.js';
import { isScope } from '../../src/engine/scopes.js';
import { pathParams, type Operation } from '../../src/engine/operation.js';
import { allScopes, createKey, expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

/** A well-formed id the parameter accepts: `<prefix>_0000000000000000000000000x`, a period id, an integer id (as a path carries it), or the example of a parameter that is no id. */
function idFor(t: Test, op: Operation, name: string): string {
  const schema = (op.schemas.params.shape as Record<string, z.ZodType>)[name];
  if (!schema) throw new Error(`${op.name}: no schema for path parameter ${name}`);
  const refused = schema.safeParse('zz_0');
  const prefix = refused.success ? 'x' : /starting (\w+?)_/.exec(refused.error.issues[0]?.message ?? '')?.[1];
  const examples = (schema.meta()?.['examples'] as unknown[] | undefined)?.filter((e) => typeof e === 'string') ?? [];
  const candidates = [`${prefix}_0000000000000000000000000x`, `${prefix}_20250401`, '999999', ...examples];
  const id = candidates.find((c) => schema.safeParse(c).success || (/^\d+$/.test(c) && schema.safeParse(Number(c)).success));
  t.ok(id, `${op.name}: a well-formed ${name} found (${candidates.join(' or ')})`);
  return id ?? candidates[0]!;
}

/** The /v1 path of an operation with its parameters filled in. */
function pathOf(t: Test, op: Operation): string {
  let path = op.path;
  for (const name of pathParams(op.path)) path = path.replace(`{${name}}`, idFor(t, op, name));
  return `/v1${path}`;
}

/** Call the operation with the key (null: none); a body op gets `{}`. */
function call(t: Test, api: Api, op: Operation, key: string | null): Promise<Reply> {
  return api.request(op.method, pathOf(t, op), { key, ...(op.schemas.body ? { body: {} } : {}) });
}

const refusedStatuses = [401, 403];

function expectAllowed(t: Test, r: Reply, who: string): void {
  t.notOk(refusedStatuses.includes(r.status), `${who}: let through (${r.status} ${r.body?.error?.code ?? ''})`);
  t.notMatch(String(r.body?.error?.message ?? ''), /^no route/, `${who}: the route exists`);
}

function expectScopeRefused(t: Test, r: Reply, who: string, named: string | null): void {
  t.equal(r.status, 403, `${who}: 403`);
  t.equal(r.body?.error?.code, 'insufficient_scope', `${who}: insufficient_scope`);
  if (named !== null) t.ok(String(r.body?.error?.message).includes(named), `${who}: the message names ${named}`);
}

interface Keys {
  readonly single: Readonly<Record<string, string>>;
  readonly full: string;
}

async function keysOf(t: Test, api: Api): Promise<Keys> {
  const single: Record<string, string> = {};
  for (const scope of allScopes) single[scope] = (await createKey(t, api, { name: `only ${scope}`, scopes: [scope] })).key;
  const full = (await createKey(t, api, { name: 'everything' })).key;
  return { single, full };
}

async function served(t: Test): Promise<{ books: Books; api: Api; keys: Keys }> {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  return { books, api, keys: await keysOf(t, api) };
}

// Administrator operations (access admin) are checked by test/platform-admin/access.test.ts.
t.test('the registry: every operation is public, any-key, all-scopes, session, admin or one of the 17 scopes', async (t) => {
  t.equal(allScopes.length, 17);
  for (const op of operations) {
    t.ok(['public', 'any-key', 'all-scopes', 'session', 'admin'].includes(op.access) || isScope(op.access), `${op.name}: ${op.access}`);
  }
  const scoped = operations.filter((op) => isScope(op.access));
  t.ok(scoped.length > 40, `${scoped.length} operations need a scope`);
});

t.test('scoped operations: only the key holding the scope (or every scope) gets through', async (t) => {
  const { api, keys } = await served(t);
  for (const op of operations.filter((o) => isScope(o.access))) {
    t.test(`${op.name}: ${op.method} ${op.path} needs ${op.access}`, async (t) => {
      for (const scope of allScopes) {
        const r = await call(t, api, op, keys.single[scope]!);
        if (scope === op.access) expectAllowed(t, r, `the ${scope} key`);
        else expectScopeRefused(t, r, `the ${scope} key`, op.access);
      }
      expectAllowed(t, await call(t, api, op, keys.full), 'the all-scopes key');
    });
  }
});

t.test('all-scopes operations: every single-scope key is 403, the key with every scope gets through', async (t) => {
  const { api, keys } = await served(t);
  const explicit = (await createKey(t, api, { name: 'all 17 listed', scopes: [...allScopes] })).key;
  const allScoped = operations.filter((o) => o.access === 'all-scopes');
  t.ok(allScoped.length >= 8, 'organisation, settings, period close and key operations');
  for (const op of allScoped) {
    t.test(`${op.name}: ${op.method} ${op.path}`, async (t) => {
      for (const scope of allScopes) expectScopeRefused(t, await call(t, api, op, keys.single[scope]!), `the ${scope} key`, null);
      // Sixteen of seventeen is not enough.
      expectAllowed(t, await call(t, api, op, keys.full), 'the key created without scopes');
      expectAllowed(t, await call(t, api, op, explicit), 'the key listing all 17 scopes');
    });
  }
});

t.test('all-scopes operations refuse a key with 16 of the 17 scopes', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  for (const missing of allScopes) {
    const { key } = await createKey(t, api, { name: `all but ${missing}`, scopes: allScopes.filter((s) => s !== missing) });
    expectScopeRefused(t, await api.request('GET', '/v1/api-keys', { key }), `without ${missing}`, null);
  }
});

t.test('any-key operations: every key gets through', async (t) => {
  const { api, keys } = await served(t);
  const anyKey = operations.filter((o) => o.access === 'any-key');
  t.ok(anyKey.length >= 4);
  for (const op of anyKey) {
    t.test(`${op.name}: ${op.method} ${op.path}`, async (t) => {
      for (const scope of allScopes) expectAllowed(t, await call(t, api, op, keys.single[scope]!), `the ${scope} key`);
      expectAllowed(t, await call(t, api, op, keys.full), 'the all-scopes key');
    });
  }
});

t.test('session operations: every API key is 403, a user session token gets through; session tokens pass every scope', async (t) => {
  const { api, keys } = await served(t);
  const reg = await api.request('POST', '/v1/registration/register', {
    key: null,
    body: { email: 'matrix@example.com', password: 'a long password', fullName: 'Matrix User', organisationName: 'Matrix Ltd' },
  });
  t.equal(reg.status, 201, 'registered');
  const session = reg.body.data.token as string;
  const sessionOnly = operations.filter((o) => o.access === 'session');
  t.ok(sessionOnly.length >= 6, 'me, logout, password and the TOTP operations');
  // Logout last: it ends the session the others use.
  for (const op of [...sessionOnly.filter((o) => o.name !== 'auth.logout'), ...sessionOnly.filter((o) => o.name === 'auth.logout')]) {
    t.test(`${op.name}: ${op.method} ${op.path}`, async (t) => {
      for (const scope of allScopes) expectScopeRefused(t, await call(t, api, op, keys.single[scope]!), `the ${scope} key`, null);
      expectScopeRefused(t, await call(t, api, op, keys.full), 'the all-scopes key', null);
      if (op.name !== 'auth.logout') expectAllowed(t, await call(t, api, op, session), 'the session token');
    });
  }
  const login = await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'matrix@example.com', password: 'a long password' } });
  const fresh = login.body.data.accessToken as string;
  for (const op of operations.filter((o) => isScope(o.access) || o.access === 'all-scopes' || o.access === 'any-key')) {
    expectAllowed(t, await call(t, api, op, fresh), `${op.name} with a session token`);
  }
  expectAllowed(
    t,
    await call(
      t,
      api,
      operations.find((o) => o.name === 'auth.logout')!,
      fresh,
    ),
    'auth.logout with the session token',
  );
});

t.test("administrator operations: every API key and a plain user's session are 403, an administrator's session gets through", async (t) => {
  const { books, api, keys } = await served(t);
  const register = (email: string) =>
    api.request('POST', '/v1/registration/register', {
      key: null,
      body: { email, password: 'a long password', fullName: 'Matrix User', organisationName: 'Matrix Ltd' },
    });
  t.equal((await register('plain@example.com')).status, 201);
  const made = await register('root@example.com');
  t.equal(made.status, 201);
  await books.store.platform.write((trx) => trx.updateTable('users').set({ is_admin: 1 }).where('email', '=', 'root@example.com').execute());
  const logIn = async (email: string) =>
    (await api.request('POST', '/v1/auth/login', { key: null, body: { email, password: 'a long password' } })).body.data.accessToken as string;
  const plain = await logIn('plain@example.com');
  const admin = await logIn('root@example.com');
  const adminOnly = operations.filter((o) => o.access === 'admin');
  t.ok(adminOnly.length >= 11, 'the audit log and the user operations at least');
  for (const op of adminOnly) {
    t.test(`${op.name}: ${op.method} ${op.path}`, async (t) => {
      for (const scope of allScopes) expectScopeRefused(t, await call(t, api, op, keys.single[scope]!), `the ${scope} key`, 'administrator');
      expectScopeRefused(t, await call(t, api, op, keys.full), 'the all-scopes key', 'administrator');
      expectScopeRefused(t, await call(t, api, op, plain), "a plain user's session", 'administrator');
      expectAllowed(t, await call(t, api, op, admin), "the administrator's session");
    });
  }
});

t.test('no key is 401 on every operation but the public ones; a revoked key is 401 everywhere', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const doomed = await createKey(t, api, { name: 'doomed' });
  const revoke = await api.request('DELETE', `/v1/api-keys/${doomed.id}`);
  t.equal(revoke.status, 200, 'revoked');
  for (const op of operations) {
    if (op.access === 'public') {
      const r = await call(t, api, op, null);
      // An empty body or query is a 400 for the other public operations (login, registration): only 401 or 403 would mean a key was wanted.
      if (op.name === 'health') t.equal(r.status, 200, `${op.name} is public: 200 without a key`);
      else expectAllowed(t, r, `${op.name} without a key`);
      continue;
    }
    const none = await call(t, api, op, null);
    t.equal(none.status, 401, `${op.name} without a key: 401`);
    t.equal(none.body?.error?.code, 'unauthorized', `${op.name} without a key: unauthorized`);
    const revoked = await call(t, api, op, doomed.key);
    t.equal(revoked.status, 401, `${op.name} with a revoked key: 401`);
    t.equal(revoked.body?.error?.code, 'unauthorized', `${op.name} with a revoked key: unauthorized`);
  }
});

t.test('keys.rename: PATCH /v1/api-keys/{id} renames, never shows a secret; revoked is 409, an empty name 400', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const made = await createKey(t, api, { name: 'Old name', scopes: ['contacts:read'] });

  const renamed = await api.request('PATCH', `/v1/api-keys/${made.id}`, { body: { name: 'New name' } });
  t.equal(renamed.status, 200);
  t.match(renamed.body.data, { id: made.id, name: 'New name', scopes: ['contacts:read'], isActive: true, mode: 'live' });

  const list = await api.request('GET', '/v1/api-keys');
  t.equal(list.status, 200);
  const listed = list.body.data.find((k: { id: string }) => k.id === made.id);
  t.equal(listed?.name, 'New name', 'the list shows the new name');
  t.notOk(
    list.body.data.some((k: { name: string }) => k.name === 'Old name'),
    'the old name is gone',
  );
  const secretish = /^(key|secret|hash|keyHash|key_hash|secretKey|apiKey|fullKey)$/i;
  for (const k of [...list.body.data, renamed.body.data] as Record<string, unknown>[]) {
    t.same(
      Object.keys(k).filter((f) => secretish.test(f)),
      [],
      `${String(k['name'])}: no secret or hash field`,
    );
    const text = JSON.stringify(k);
    t.notOk(/sk_(live|test)_[0-9A-Za-z]{32}/.test(text), `${String(k['name'])}: no full key in any field`);
    t.notOk(/[0-9a-f]{64}/.test(text), `${String(k['name'])}: no SHA-256 hash in any field`);
  }
  t.equal((await api.request('GET', '/v1/contacts', { key: made.key })).status, 200, 'the renamed key still works');

  expectError(t, await api.request('PATCH', `/v1/api-keys/${made.id}`, { body: { name: '' } }), 400, 'validation_error', { field: 'name' });
  expectError(t, await api.request('PATCH', `/v1/api-keys/${made.id}`, { body: {} }), 400, 'validation_error', { field: 'name' });
  expectError(t, await api.request('PATCH', '/v1/api-keys/key_0000000000000000000000000x', { body: { name: 'Ghost' } }), 404, 'not_found');
  // A test key cannot rename a live key.
  expectError(t, await api.request('PATCH', `/v1/api-keys/${made.id}`, { key: books.testApiKey, body: { name: 'Sandboxed' } }), 404, 'not_found');

  t.equal((await api.request('DELETE', `/v1/api-keys/${made.id}`)).status, 200, 'revoked');
  expectError(t, await api.request('PATCH', `/v1/api-keys/${made.id}`, { body: { name: 'Too late' } }), 409, 'conflict');
  const after = await api.request('GET', '/v1/api-keys');
  t.match(
    after.body.data.find((k: { id: string }) => k.id === made.id),
    { name: 'New name', isActive: false },
    'the revoked key keeps its name',
  );
});

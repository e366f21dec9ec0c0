/** API keys: create (key shown once), list (never the key), rotate, revoke, other organisations. */
import { createHash } from 'node:crypto';
import t from 'tap';
import { movingClock, newBooks, serveBooks } from '../helpers/index.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { allScopes, createKey, expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

t.test('POST /api-keys returns the full key once, its prefix, and all 17 scopes when none are given', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('POST', '/v1/api-keys', { body: { name: 'CI server' } });
  t.equal(r.status, 201);
  t.equal(r.body.success, true);
  const k = r.body.data;
  t.match(k.key, /^sk_live_[0-9A-Za-z]{32}$/);
  t.equal(k.key.length, 40);
  t.equal(k.prefix, k.key.slice(0, 8), 'prefix is the first 8 characters of the key');
  t.equal(k.prefix, 'sk_live_');
  t.match(k.id, /^key_[0-9A-Za-z]+$/);
  t.equal(k.name, 'CI server');
  t.same([...k.scopes].sort(), [...allScopes].sort());
  t.equal(k.scopes.length, 17);

  const works = await api.request('GET', '/v1/organisation', { key: k.key });
  t.equal(works.status, 200, 'the new key authenticates');
  t.equal(works.body.data.id, books.organisationId);
  const admin = await api.request('GET', '/v1/api-keys', { key: k.key });
  t.equal(admin.status, 200, 'a key created without scopes may administer');
});

t.test('two keys created alike are different', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const a = await createKey(t, api, { name: 'same' });
  const b = await createKey(t, api, { name: 'same' });
  t.not(a.key, b.key);
  t.not(a.id, b.id);
});

t.test('POST /api-keys with scopes gives exactly those scopes', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('POST', '/v1/api-keys', { body: { name: 'reader', scopes: ['contacts:read', 'reports:read'] } });
  t.equal(r.status, 201);
  t.same([...r.body.data.scopes].sort(), ['contacts:read', 'reports:read']);
});

t.test('GET /api-keys never shows the key or its hash', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key, id } = await createKey(t, api, { name: 'secret' });
  const r = await api.request('GET', '/v1/api-keys');
  t.equal(r.status, 200);
  const text = JSON.stringify(r.body);
  for (const secret of [key, books.apiKey]) {
    t.notOk(text.includes(secret), 'the full key is not in the list');
    t.notOk(text.includes(secret.slice(8)), 'the secret part of the key is not in the list');
    t.notOk(text.includes(createHash('sha256').update(secret).digest('hex')), 'the SHA-256 hash is not in the list');
  }
  const record = r.body.data.find((k: { id: string }) => k.id === id);
  t.ok(record, 'the created key is listed');
  t.equal(record.name, 'secret');
  t.equal(record.prefix, 'sk_live_');
  for (const k of r.body.data) {
    t.notOk('key' in k, 'no key member');
    t.notOk('keyHash' in k || 'key_hash' in k || 'hash' in k, 'no hash member');
  }
});

t.test('GET /api-keys pages newest first with meta {total, page, limit, hasMore}', async (t) => {
  const time = movingClock(clock);
  const books = await newBooks(t, { clock: time });
  const api = await serveBooks(t, books);
  time.advance(60_000);
  const second = await createKey(t, api, { name: 'second' });
  time.advance(60_000);
  const third = await createKey(t, api, { name: 'third' });

  const all = await api.request('GET', '/v1/api-keys');
  t.equal(all.status, 200);
  t.same(all.body.meta, { total: 3, page: 1, limit: 20, hasMore: false });
  t.same(
    all.body.data.map((k: { name: string }) => k.name),
    ['third', 'second', 'Default live key'],
  );

  const page1 = await api.request('GET', '/v1/api-keys?limit=2');
  t.same(page1.body.meta, { total: 3, page: 1, limit: 2, hasMore: true });
  t.same(
    page1.body.data.map((k: { id: string }) => k.id),
    [third.id, second.id],
  );

  const page2 = await api.request('GET', '/v1/api-keys?limit=2&page=2');
  t.same(page2.body.meta, { total: 3, page: 2, limit: 2, hasMore: false });
  t.same(
    page2.body.data.map((k: { name: string }) => k.name),
    ['Default live key'],
  );

  const beyond = await api.request('GET', '/v1/api-keys?limit=2&page=5');
  t.equal(beyond.status, 200);
  t.same(beyond.body.data, []);
  t.same(beyond.body.meta, { total: 3, page: 5, limit: 2, hasMore: false });

  const max = await api.request('GET', '/v1/api-keys?limit=100');
  t.equal(max.status, 200);
  t.equal(max.body.meta.limit, 100);
});

t.test('GET /api-keys refuses a limit over 100 and a page under 1', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  expectError(t, await api.request('GET', '/v1/api-keys?limit=101'), 400, 'validation_error', { field: 'limit' });
  expectError(t, await api.request('GET', '/v1/api-keys?limit=0'), 400, 'validation_error', { field: 'limit' });
  expectError(t, await api.request('GET', '/v1/api-keys?page=0'), 400, 'validation_error', { field: 'page' });
  expectError(t, await api.request('GET', '/v1/api-keys?page=-1'), 400, 'validation_error', { field: 'page' });
});

t.test('POST /api-keys/{id}/rotate: a new key, same name and scopes; the old one is revoked', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const old = await createKey(t, api, { name: 'bookkeeper', scopes: ['contacts:read', 'reports:read'] });

  const r = await api.request('POST', `/v1/api-keys/${old.id}/rotate`);
  t.equal(r.status, 201);
  const fresh = r.body.data;
  t.match(fresh.key, /^sk_live_[0-9A-Za-z]{32}$/);
  t.not(fresh.key, old.key);
  t.not(fresh.id, old.id);
  t.equal(fresh.prefix, fresh.key.slice(0, 8));
  t.equal(fresh.name, 'bookkeeper');
  t.same([...fresh.scopes].sort(), ['contacts:read', 'reports:read']);

  expectError(t, await api.request('GET', '/v1/organisation', { key: old.key }), 401, 'unauthorized', { field: null });
  const works = await api.request('GET', '/v1/reports/periods', { key: fresh.key });
  t.equal(works.status, 200, 'the new key works with the scope it inherited');
  const limited = await api.request('PUT', '/v1/organisation', { key: fresh.key, body: { name: 'Nope Ltd' } });
  t.equal(limited.status, 403, 'and is still limited to those scopes');

  const list = await api.request('GET', '/v1/api-keys');
  const oldRecord = list.body.data.find((k: { id: string }) => k.id === old.id);
  const newRecord = list.body.data.find((k: { id: string }) => k.id === fresh.id);
  t.equal(oldRecord.isActive, false, 'the old key is listed as revoked');
  t.equal(newRecord.isActive, true);
  t.notOk(JSON.stringify(list.body).includes(fresh.key), 'the list does not show the new key');
});

t.test('DELETE /api-keys/{id} revokes the key; a second DELETE is 409 conflict', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key, id } = await createKey(t, api, { name: 'to revoke' });

  const del = await api.request('DELETE', `/v1/api-keys/${id}`);
  t.equal(del.status, 200);
  t.equal(del.body.success, true);
  t.equal(del.body.data.id, id);
  t.equal(del.body.data.revoked, true);

  expectError(t, await api.request('GET', '/v1/organisation', { key }), 401, 'unauthorized', { field: null });
  expectError(t, await api.request('DELETE', `/v1/api-keys/${id}`), 409, 'conflict', { field: null });

  const list = await api.request('GET', '/v1/api-keys');
  const record = list.body.data.find((k: { id: string }) => k.id === id);
  t.equal(record.isActive, false);
  t.equal(list.body.meta.total, 2, 'a revoked key is still listed');
});

t.test('a key id that does not exist is 404; a malformed one is 400 invalid_id', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  expectError(t, await api.request('DELETE', '/v1/api-keys/key_doesnotexist0000000000'), 404, 'not_found', { field: null });
  expectError(t, await api.request('POST', '/v1/api-keys/key_doesnotexist0000000000/rotate'), 404, 'not_found', { field: null });
  expectError(t, await api.request('DELETE', '/v1/api-keys/cont_123'), 400, 'invalid_id');
  expectError(t, await api.request('POST', '/v1/api-keys/not-a-key/rotate'), 400, 'invalid_id');
});

t.test('a key id of another organisation is 404 and that key keeps working', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Books Ltd', businessType: 'limited_company', vatScheme: 'standard' });
  const otherList = await api.request('GET', '/v1/api-keys', { key: other.apiKey });
  t.equal(otherList.status, 200);
  const otherKeyId: string = otherList.body.data[0].id;
  t.match(otherKeyId, /^key_/);

  expectError(t, await api.request('DELETE', `/v1/api-keys/${otherKeyId}`), 404, 'not_found', { field: null });
  expectError(t, await api.request('POST', `/v1/api-keys/${otherKeyId}/rotate`), 404, 'not_found', { field: null });

  const still = await api.request('GET', '/v1/organisation', { key: other.apiKey });
  t.equal(still.status, 200, "the other organisation's key was neither revoked nor rotated");
  t.equal(still.body.data.name, 'Other Books Ltd');
  const after = await api.request('GET', '/v1/api-keys', { key: other.apiKey });
  t.equal(after.body.meta.total, 1, 'no key was added to the other organisation');
  t.equal(after.body.data[0].isActive, true);
});

t.test('GET /api-keys/scopes lists the 17 scopes for any key', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key } = await createKey(t, api, { name: 'narrow', scopes: ['quotes:read'] });
  const r = await api.request('GET', '/v1/api-keys/scopes', { key });
  t.equal(r.status, 200);
  t.same(r.body.data.scopes.map((s: { scope: string }) => s.scope).sort(), [...allScopes].sort());
});

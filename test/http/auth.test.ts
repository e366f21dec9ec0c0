/** Authentication (Bearer API keys, 401) and scopes (403 insufficient_scope). */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { allScopes, createKey, expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

t.test('a request without a key is 401 unauthorized', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/organisation', { key: null });
  expectError(t, r, 401, 'unauthorized', { field: null });
  t.equal(r.headers.get('www-authenticate'), 'Bearer');
});

t.test('a malformed Authorization header or key is 401 unauthorized', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const valid = books.apiKey;
  const headers = [
    valid, // the key alone, without the Bearer scheme
    `Basic ${valid}`,
    `Token ${valid}`,
    'Bearer',
    'Bearer ',
    `Bearer ${valid} extra`,
    'Bearer sk_live_tooShort',
    `Bearer sk_prod_${'A'.repeat(32)}`,
    `Bearer pk_live_${'A'.repeat(32)}`,
    `Bearer sk_live_${'A'.repeat(31)}!`,
    `Bearer sk_live_${'A'.repeat(33)}`,
    `Bearer ${valid.slice(0, -1)}`,
  ];
  for (const authorization of headers) {
    const r = await api.request('GET', '/v1/organisation', { key: null, headers: { authorization } });
    t.equal(r.status, 401, `401 for Authorization: ${authorization}`);
    t.equal(r.body?.error?.code, 'unauthorized', `unauthorized for Authorization: ${authorization}`);
  }
  // The same server accepts the well-formed header.
  const ok = await api.request('GET', '/v1/organisation', { key: null, headers: { authorization: `Bearer ${valid}` } });
  t.equal(ok.status, 200);
});

t.test('a well-formed key that does not exist is 401 unauthorized', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  expectError(t, await api.request('GET', '/v1/organisation', { key: `sk_live_${'A'.repeat(32)}` }), 401, 'unauthorized', { field: null });
  expectError(t, await api.request('GET', '/v1/organisation', { key: `sk_test_${'z9'.repeat(16)}` }), 401, 'unauthorized', { field: null });
});

t.test('a revoked key is 401 unauthorized at once', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key, id } = await createKey(t, api, { name: 'short-lived' });

  const before = await api.request('GET', '/v1/organisation', { key });
  t.equal(before.status, 200, 'the key works before revocation');

  const del = await api.request('DELETE', `/v1/api-keys/${id}`);
  t.equal(del.status, 200);

  // The very next request with it, on the same server, is refused.
  expectError(t, await api.request('GET', '/v1/organisation', { key }), 401, 'unauthorized', { field: null });
  expectError(t, await api.request('GET', '/v1/organisation/settings', { key }), 401, 'unauthorized', { field: null });
  // The key that revoked it still works.
  t.equal((await api.request('GET', '/v1/organisation')).status, 200);
});

t.test('a key without reports:read gets 403 insufficient_scope naming reports:read', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key } = await createKey(t, api, { name: 'contacts only', scopes: ['contacts:read', 'contacts:write'] });

  const list = await api.request('GET', '/v1/reports/periods', { key });
  expectError(t, list, 403, 'insufficient_scope', { field: null });
  t.match(list.body.error.message, /reports:read/);

  const one = await api.request('GET', '/v1/reports/periods/period_20250401', { key });
  expectError(t, one, 403, 'insufficient_scope', { field: null });
  t.match(one.body.error.message, /reports:read/);
});

t.test('a key holding reports:read may read periods', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key } = await createKey(t, api, { name: 'reports only', scopes: ['reports:read'] });
  const r = await api.request('GET', '/v1/reports/periods', { key });
  t.equal(r.status, 200);
  t.same(
    r.body.data.periods.map((p: { id: string }) => p.id),
    ['period_20260401', 'period_20250401'],
  );
});

t.test('administration needs a key with all scopes: a limited key gets 403 and changes nothing', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  // Every scope but one: still not an administrator key.
  const { key } = await createKey(t, api, { name: 'all but one', scopes: allScopes.filter((s) => s !== 'dividends:write') });

  const admin: Array<[string, string, unknown]> = [
    ['PUT', '/v1/organisation', { name: 'Hijacked Ltd' }],
    ['PUT', '/v1/organisation/settings', { invoicePrefix: 'HIJ-' }],
    ['POST', '/v1/api-keys', { name: 'escalated' }],
    ['POST', '/v1/reports/periods/period_20250401/close', undefined],
    ['GET', '/v1/api-keys', undefined],
  ];
  for (const [method, path, body] of admin) {
    const r = await api.request(method, path, { key, body });
    t.equal(r.status, 403, `403 for ${method} ${path}`);
    t.equal(r.body?.error?.code, 'insufficient_scope', `insufficient_scope for ${method} ${path}`);
  }

  const org = await api.request('GET', '/v1/organisation');
  t.equal(org.body.data.name, 'Acme Widgets Ltd', 'name unchanged');
  t.equal(org.body.data.settings.invoicePrefix, 'INV-', 'invoice prefix unchanged');
  const period = await api.request('GET', '/v1/reports/periods/period_20250401');
  t.equal(period.body.data.isClosed, false, 'period still open');
  const keys = await api.request('GET', '/v1/api-keys');
  t.equal(keys.body.meta.total, 2, 'only the default key and the limited key exist');
  t.notOk(
    keys.body.data.some((k: { name: string }) => k.name === 'escalated'),
    'no escalated key was created',
  );
});

t.test('a full-scope key created through the API may administer', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key } = await createKey(t, api, { name: 'full', scopes: [...allScopes] });
  const r = await api.request('PUT', '/v1/organisation', { key, body: { name: 'Allowed Ltd' } });
  t.equal(r.status, 200);
  t.equal(r.body.data.name, 'Allowed Ltd');
});

t.test('GET /organisation works with any valid key, whatever its scopes', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key } = await createKey(t, api, { name: 'dividends reader', scopes: ['dividends:read'] });
  const r = await api.request('GET', '/v1/organisation', { key });
  t.equal(r.status, 200);
  t.equal(r.body.data.id, books.organisationId);
  t.equal(r.body.data.name, 'Acme Widgets Ltd');
});

t.test('POST /api-keys refuses unknown scope names and an empty scope list', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  const unknown = await api.request('POST', '/v1/api-keys', { body: { name: 'bad', scopes: ['contacts:read', 'admin:all'] } });
  expectError(t, unknown, 400, 'validation_error', { field: 'scopes' });
  t.match(unknown.body.error.message, /admin:all/);

  const wrongCase = await api.request('POST', '/v1/api-keys', { body: { name: 'bad', scopes: ['Reports:Read'] } });
  expectError(t, wrongCase, 400, 'validation_error', { field: 'scopes' });

  const empty = await api.request('POST', '/v1/api-keys', { body: { name: 'none', scopes: [] } });
  expectError(t, empty, 400, 'validation_error', { field: 'scopes' });

  const keys = await api.request('GET', '/v1/api-keys');
  t.equal(keys.body.meta.total, 1, 'no key was created');
});

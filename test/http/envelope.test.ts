/** The response envelopes, the two path prefixes, unknown routes and the public health check. */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

t.test('a success is {success: true, data} with no meta on a single resource', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/organisation');
  t.equal(r.status, 200);
  t.match(r.headers.get('content-type'), /^application\/json/);
  t.same(Object.keys(r.body).sort(), ['data', 'success']);
  t.equal(r.body.success, true);
  t.equal(r.body.data.id, books.organisationId);
  t.equal(r.body.data.name, 'Acme Widgets Ltd');
});

t.test('a list is {success: true, data: [...], meta}', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/api-keys');
  t.equal(r.status, 200);
  t.same(Object.keys(r.body).sort(), ['data', 'meta', 'success']);
  t.equal(r.body.success, true);
  t.ok(Array.isArray(r.body.data), 'data is an array');
  t.same(r.body.meta, { total: 1, page: 1, limit: 20, hasMore: false });
});

t.test('an error is {success: false, error: {code, message}} and field only on validation errors', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  const unauthorized = await api.request('GET', '/v1/organisation', { key: null });
  expectError(t, unauthorized, 401, 'unauthorized', { field: null });
  t.same(Object.keys(unauthorized.body).sort(), ['error', 'success']);
  t.same(Object.keys(unauthorized.body.error).sort(), ['code', 'message']);
  t.match(unauthorized.headers.get('content-type'), /^application\/json/);

  const invalid = await api.request('PUT', '/v1/organisation', { body: { email: 'not-an-email' } });
  expectError(t, invalid, 400, 'validation_error', { field: 'email' });
  t.same(Object.keys(invalid.body.error).sort(), ['code', 'field', 'message']);
});

t.test('the same routes answer under /v1 and /api/v1', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  const v1 = await api.request('GET', '/v1/organisation');
  const apiV1 = await api.request('GET', '/api/v1/organisation');
  t.equal(v1.status, 200);
  t.equal(apiV1.status, 200);
  t.same(apiV1.body, v1.body, 'the same organisation under both prefixes');

  // A change through one prefix is seen through the other.
  const put = await api.request('PUT', '/api/v1/organisation', { body: { name: 'Renamed via api/v1' } });
  t.equal(put.status, 200);
  const after = await api.request('GET', '/v1/organisation');
  t.equal(after.body.data.name, 'Renamed via api/v1');

  const periods = await api.request('GET', '/api/v1/reports/periods/period_20250401');
  t.equal(periods.status, 200);
  t.equal(periods.body.data.id, 'period_20250401');

  const created = await api.request('POST', '/api/v1/api-keys', { body: { name: 'via api/v1' } });
  t.equal(created.status, 201);
  t.match(created.body.data.key, /^sk_live_[0-9A-Za-z]{32}$/);

  const health = await api.request('GET', '/api/v1/health', { key: null });
  t.equal(health.status, 200);
  t.equal(health.body.data.status, 'operational');
});

t.test('an unknown route is 404 not_found in the error envelope', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  expectError(t, await api.request('GET', '/v1/no-such-thing'), 404, 'not_found', { field: null });
  expectError(t, await api.request('GET', '/v1/no-such-thing', { key: null }), 404, 'not_found', { field: null });
  expectError(t, await api.request('GET', '/v2/organisation'), 404, 'not_found', { field: null });
  expectError(t, await api.request('GET', '/organisation'), 404, 'not_found', { field: null });
  expectError(t, await api.request('POST', '/api/v1/reports/periods/period_20250401/reopen'), 404, 'not_found', { field: null });
});

t.test('GET /v1/health needs no key', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/health', { key: null });
  t.equal(r.status, 200);
  t.equal(r.body.success, true);
  t.equal(r.body.data.status, 'operational');
  t.equal(new Date(r.body.data.timestamp).toISOString(), '2026-11-21T10:00:00.000Z', 'timestamp from the clock');
  t.type(r.body.data.version, 'string');
  t.equal(r.body.data.services.database.status, 'operational');
});

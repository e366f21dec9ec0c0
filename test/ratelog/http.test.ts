/**
 * The request log and the rate limits over a real server: successes listed
 * one entry each, refusals as one entry with a count, the cap on entries,
 * and which limits a refused request counts against.
 */
import t from 'tap';
import { movingClock, newBooks } from '../helpers/index.js';
import { RequestLogWriter } from '../../src/engine/integration/request-log-writer.js';
import { createKey, expectError, serveWith } from '../integration/support.js';

const company = { businessType: 'limited_company', name: 'Acme Widgets Ltd', vatScheme: 'standard' } as const;

t.test('successes are listed one entry each (count 1), a burst of 403s as one entry counting them', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const books = await newBooks(t, { clock, organisation: company });
  const requestLog = new RequestLogWriter(books.store, clock);
  const api = await serveWith(t, books, { clock, requestLog });
  const { key, id } = await createKey(t, api, { name: 'reader', scopes: ['contacts:read'] });
  for (let i = 0; i < 3; i++) t.equal((await api.request('GET', '/v1/contacts', { key })).status, 200);
  for (let i = 1; i <= 4; i++) expectError(t, await api.request('GET', `/v1/invoices/inv_${i}`, { key }), 403, 'insufficient_scope');
  await requestLog.flush();

  const listed = await api.request('GET', '/v1/request-log?limit=20');
  t.equal(listed.status, 200);
  t.same(
    (listed.body.data as Record<string, unknown>[]).map((e) => [e['method'], e['path'], e['status'], e['count']]),
    [
      ['GET', '/v1/invoices/inv_1', 403, 4],
      ['GET', '/v1/contacts', 200, 1],
      ['GET', '/v1/contacts', 200, 1],
      ['GET', '/v1/contacts', 200, 1],
      ['POST', '/v1/api-keys', 201, 1],
    ],
  );
  const summary = (listed.body.data as { id: string; keyId: string }[])[0];
  t.equal(summary?.keyId, id);
  const detail = await api.request('GET', `/v1/request-log/${summary?.id ?? ''}`);
  t.match(detail.body.data, { count: 4, status: 403, error: { code: 'insufficient_scope' } });
});

t.test('the cap given to the writer holds over HTTP: the newest entries are kept', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const books = await newBooks(t, { clock });
  const requestLog = new RequestLogWriter(books.store, clock, { maxEntries: 3 });
  const api = await serveWith(t, books, { clock, rateLimits: false, requestLog });
  // Five paths told apart by a parameter the list takes (an unknown one is refused).
  for (let i = 1; i <= 5; i++) {
    t.equal((await api.request('GET', `/v1/contacts?limit=${i}`)).status, 200);
    clock.advance(1000);
  }
  await requestLog.flush();
  const listed = await api.request('GET', '/v1/request-log');
  t.same(
    (listed.body.data as { path: string }[]).map((e) => e.path),
    ['/v1/contacts?limit=5', '/v1/contacts?limit=4', '/v1/contacts?limit=3'],
    'five requests, three entries kept',
  );
  t.equal(listed.body.meta.total, 3);
});

t.test('a refused request counts against the plan before the scope check, but not against key creation', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const books = await newBooks(t, { clock, organisation: company });
  const api = await serveWith(t, books, { clock });
  const { key } = await createKey(t, api, { name: 'reader', scopes: ['contacts:read'] }); // plan 1 of 120, key creation 1 of 10
  // Twelve attempts to make keys with a key that may not: refused for the scope, not for key creation's limit of 10.
  for (let i = 0; i < 12; i++) expectError(t, await api.request('POST', '/v1/api-keys', { key, body: { name: 'sneaky' } }), 403, 'insufficient_scope');
  // The owner still has key creation's other 9.
  for (let i = 2; i <= 10; i++) t.equal((await api.request('POST', '/v1/api-keys', { body: { name: `key ${i}` } })).status, 201, `key ${i} made`);
  expectError(t, await api.request('POST', '/v1/api-keys', { body: { name: 'key 11' } }), 429, 'rate_limited');
  // Plan: 1 + 12 refused + 9 made + 1 refused for key creation = 23 of 120; 97 more pass, then 429 whatever the scope.
  for (let i = 0; i < 97; i++) t.equal((await api.request('GET', '/v1/contacts', { key })).status, 200);
  expectError(t, await api.request('GET', '/v1/invoices', { key }), 429, 'rate_limited');
  expectError(t, await api.request('GET', '/v1/contacts', { key }), 429, 'rate_limited');
});

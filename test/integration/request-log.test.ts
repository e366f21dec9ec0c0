/**
 * The API request log through HTTP: what is logged for a success, a refusal
 * (with its error body) and an idempotent request; live and test apart;
 * all-scopes access; 30 days' retention.
 */
import t from 'tap';
import type { Test } from 'tap';
import { generousMs, movingClock, newBooks, type Api } from '../helpers/index.js';
import { createKey, expectError, serveWith } from './support.js';

/** The log, polled until it holds at least `n` entries (it is written in batches); a failure after 20 s. */
async function logOf(
  t: Test,
  api: Api,
  n: number,
  query = '',
  key?: string,
  holds: (entries: Record<string, unknown>[]) => boolean = () => true,
): Promise<Record<string, unknown>[]> {
  for (const deadline = Date.now() + generousMs; Date.now() <= deadline;) {
    const r = await api.request('GET', `/v1/request-log${query}`, key === undefined ? {} : { key });
    t.equal(r.status, 200, 'log listed');
    // The listing itself is logged too, after it answers: only entries before it count.
    const entries = (r.body.data as Record<string, unknown>[]).filter((e) => !String(e['path']).startsWith('/v1/request-log'));
    if (entries.length >= n && holds(entries)) return entries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the request log did not hold ${n} entries within ${generousMs / 1000} s`);
}

t.test('successes and refusals are logged with method, path, status, latency and key; errors keep their body', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const books = await newBooks(t, { clock });
  const api = await serveWith(t, books, { clock, rateLimits: false });
  t.equal(
    (await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Log Ltd' }, headers: { 'Idempotency-Key': 'log-1' } })).status,
    201,
  );
  expectError(t, await api.request('POST', '/v1/contacts', { body: { contactType: 'customer' } }), 400, 'validation_error', { field: 'name' });
  t.equal((await api.request('GET', '/v1/contacts?limit=5')).status, 200);
  const entries = await logOf(t, api, 3);
  const [list, refused, created] = entries;
  t.match(list, { method: 'GET', path: '/v1/contacts?limit=5', status: 200, idempotencyKey: null, keyPrefix: 'sk_live_' });
  t.match(refused, { method: 'POST', path: '/v1/contacts', status: 400 });
  t.match(created, { method: 'POST', path: '/v1/contacts', status: 201, idempotencyKey: 'log-1' });
  for (const e of entries) {
    t.type(e['latencyMs'], 'number');
    t.match(e['id'], /^req_/);
    t.match(e['keyId'], /^key_/);
    t.notOk('error' in e, 'the list leaves bodies out');
  }
  const detail = await api.request('GET', `/v1/request-log/${String(refused?.['id'])}`);
  t.equal(detail.status, 200);
  t.match(detail.body.data.error, { code: 'validation_error', field: 'name' }, 'a refusal keeps its error body');
  const ok = await api.request('GET', `/v1/request-log/${String(created?.['id'])}`);
  t.equal(ok.body.data.error, null, 'a success keeps no body');
  const errorsOnly = await logOf(t, api, 1, '?errors=true');
  t.ok(errorsOnly.every((e) => Number(e['status']) >= 400));
  expectError(t, await api.request('GET', '/v1/request-log/req_0000000000000000000000000x'), 404, 'not_found');
  expectError(t, await api.request('GET', '/v1/request-log/abc'), 400, 'invalid_id');
});

t.test('live and test requests are logged in their own books; a key without all scopes cannot read the log', async (t) => {
  const books = await newBooks(t);
  const api = await serveWith(t, books, { rateLimits: false });
  t.equal((await api.request('GET', '/v1/accounts', { key: books.testApiKey })).status, 200);
  const test = await logOf(t, api, 1, '', books.testApiKey);
  t.ok(test.some((e) => e['path'] === '/v1/accounts'));
  const live = await api.request('GET', '/v1/request-log');
  t.notOk(
    (live.body.data as { path: string }[]).some((e) => e.path === '/v1/accounts'),
    'the live log does not show a test request',
  );
  const { key } = await createKey(t, api, { scopes: ['contacts:read'] });
  expectError(t, await api.request('GET', '/v1/request-log', { key }), 403, 'insufficient_scope');
  expectError(t, await api.request('GET', '/v1/request-log', { key: 'sk_live_nope' }), 401, 'unauthorized');
});

t.test('entries older than 30 days are pruned as new ones are written', async (t) => {
  const clock = movingClock('2026-10-01T10:00:00Z');
  const books = await newBooks(t, { clock });
  const first = await serveWith(t, books, { clock, rateLimits: false });
  t.equal((await first.request('GET', '/v1/organisation')).status, 200);
  const old = await logOf(t, first, 1);
  t.equal(old.length, 1);
  // 31 days later, a new server (its pruning runs on its first write for these books).
  clock.advance(31 * 86_400_000);
  const second = await serveWith(t, books, { clock, rateLimits: false });
  t.equal((await second.request('GET', '/v1/accounts')).status, 200);
  const now = await logOf(t, second, 1, '', undefined, (entries) => entries.some((e) => e['path'] === '/v1/accounts'));
  t.notOk(
    now.some((e) => e['id'] === old[0]?.['id']),
    'the 31-day-old entry is gone',
  );
  t.ok(now.some((e) => e['path'] === '/v1/accounts'));
});

/**
 * Rate limits over a real server with rateLimits on (as `acct serve` runs)
 * and a clock the test moves: Sole Trader 60 and Limited Company 120
 * requests a minute per organisation, live and test keys together; key
 * creation 10 a minute; 429 rate_limited with Retry-After in seconds.
 */
import t from 'tap';
import type { Test } from 'tap';
import { movingClock, newBooks, serveBooks, type Api, type Books, type MovingClock, type Reply } from '../helpers/index.js';
import { createOrganisation, type NewOrganisation } from '../../src/engine/organisation/provision.js';
import { createKey, expectError, serveWith } from './support.js';

const start = '2026-11-21T10:00:00Z';
const soleTrader: NewOrganisation = { businessType: 'sole_trader', name: 'Jo Bloggs Plumbing', vatScheme: 'not_registered' };
const company: NewOrganisation = { businessType: 'limited_company', name: 'Acme Widgets Ltd', vatScheme: 'standard' };

async function limited(t: Test, organisation: NewOrganisation = soleTrader): Promise<{ books: Books; api: Api; clock: MovingClock }> {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock, organisation });
  const api = await serveWith(t, books, { clock });
  return { books, api, clock };
}

/** `n` GETs of `path` one after another; their statuses. */
async function statuses(api: Api, n: number, path = '/v1/accounts', key?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await api.request('GET', path, key === undefined ? {} : { key })).status);
  return out;
}

/** A 429 rate_limited in the error envelope with an integer Retry-After of 1..60; the seconds. */
function expectLimited(t: Test, r: Reply): number {
  expectError(t, r, 429, 'rate_limited', { field: null });
  const header = r.headers.get('retry-after');
  t.match(header, /^\d+$/, 'Retry-After is an integer number of seconds');
  const seconds = Number(header);
  t.ok(seconds >= 1 && seconds <= 60, `Retry-After ${seconds} is between 1 and 60`);
  return seconds;
}

t.test('Sole Trader: 60 requests in a minute, the 61st is 429 with Retry-After; after the wait they pass again', async (t) => {
  const { books, api, clock } = await limited(t);
  t.same(await statuses(api, 60), Array(60).fill(200), '60 GET /v1/accounts in the same minute succeed');
  // All 60 at the same instant: the oldest frees a slot 60 seconds on.
  t.equal(expectLimited(t, await api.request('GET', '/v1/accounts')), 60, 'Retry-After 60');

  // A refused write does nothing, and its Idempotency-Key is not spent on the 429.
  const refused = await api.request('POST', '/v1/contacts', {
    body: { contactType: 'customer', name: 'Client One Ltd' },
    headers: { 'Idempotency-Key': 'k-rl' },
  });
  expectLimited(t, refused);
  t.equal(refused.headers.get('idempotent-replayed'), null);

  clock.advance(30_000);
  t.equal(expectLimited(t, await api.request('GET', '/v1/accounts')), 30, 'half a minute on: Retry-After 30');

  clock.advance(30_000); // exactly the Retry-After given
  t.equal((await api.request('GET', '/v1/accounts')).status, 200, 'after waiting Retry-After seconds the request passes');
  const created = await api.request('POST', '/v1/contacts', {
    body: { contactType: 'customer', name: 'Client One Ltd' },
    headers: { 'Idempotency-Key': 'k-rl' },
  });
  t.equal(created.status, 201, 'the retried write runs');
  t.equal(created.headers.get('idempotent-replayed'), null, 'not a replay of the 429');
  const contacts = await books.store.org(books.organisationId, 'live').db.selectFrom('contacts').select('id').execute();
  t.equal(contacts.length, 1, 'one contact, made by the retry');
  t.same(await statuses(api, 58), Array(58).fill(200), 'a fresh minute: 60 in all again');
  expectLimited(t, await api.request('GET', '/v1/accounts'));
});

t.test('live and test keys of one organisation share its limit', async (t) => {
  const { books, api } = await limited(t);
  const sandbox = await createKey(t, api, { name: 'sandbox' }, books.testApiKey); // request 1
  t.match(sandbox.key, /^sk_test_/);
  t.same(await statuses(api, 29, '/v1/accounts'), Array(29).fill(200), '29 live');
  t.same(await statuses(api, 15, '/v1/accounts', books.testApiKey), Array(15).fill(200), '15 with the default test key');
  t.same(await statuses(api, 15, '/v1/accounts', sandbox.key), Array(15).fill(200), '15 with the new test key: 60 in all');
  expectLimited(t, await api.request('GET', '/v1/accounts', { key: sandbox.key }));
  expectLimited(t, await api.request('GET', '/v1/accounts', { key: books.testApiKey }));
  expectLimited(t, await api.request('GET', '/v1/organisation'));
});

t.test('Limited Company: 120 requests in a minute, the 121st is 429', async (t) => {
  const { api, clock } = await limited(t, company);
  t.same(await statuses(api, 120), Array(120).fill(200), '120 succeed');
  expectLimited(t, await api.request('GET', '/v1/accounts'));
  clock.advance(60_001);
  t.equal((await api.request('GET', '/v1/accounts')).status, 200, 'a minute later they pass again');
});

t.test('key creation: 10 a minute, the 11th is 429 while the plan still has room', async (t) => {
  const { api, clock } = await limited(t, company);
  for (let i = 1; i <= 10; i++) {
    const r = await api.request('POST', '/v1/api-keys', { body: { name: `key ${i}` } });
    t.equal(r.status, 201, `key ${i} created`);
  }
  const eleventh = await api.request('POST', '/v1/api-keys', { body: { name: 'key 11' } });
  expectLimited(t, eleventh);
  t.match(eleventh.body.error.message, /key/i, 'the message says which limit');
  t.equal((await api.request('GET', '/v1/organisation')).status, 200, 'other requests still pass (11 of 120 used)');
  const list = await api.request('GET', '/v1/api-keys?limit=100');
  t.equal(list.body.meta.total, 11, 'the default live key and 10 new ones: the 11th was not made');

  // Rotation counts against the same limit.
  const victim = list.body.data.find((k: { name: string }) => k.name === 'key 1').id as string;
  expectLimited(t, await api.request('POST', `/v1/api-keys/${victim}/rotate`, { body: {} }));
  t.equal((await api.request('GET', '/v1/api-keys?limit=100')).body.meta.total, 11, 'no rotation happened');

  clock.advance(60_001);
  const later = await api.request('POST', '/v1/api-keys', { body: { name: 'key 11' } });
  t.equal(later.status, 201, 'a minute later keys can be made again');
});

t.test("another organisation in the same data directory is not held back by the first one's limit", async (t) => {
  const { books, api } = await limited(t);
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Trader', businessType: 'sole_trader', vatScheme: 'not_registered' });
  t.same(await statuses(api, 60), Array(60).fill(200));
  expectLimited(t, await api.request('GET', '/v1/accounts'));
  t.same(await statuses(api, 60, '/v1/accounts', other.apiKey), Array(60).fill(200), 'the other organisation has its own 60');
  expectLimited(t, await api.request('GET', '/v1/accounts', { key: other.testApiKey })); // then it is limited itself
  expectLimited(t, await api.request('GET', '/v1/accounts'));
});

t.test('a paginated list request counts as one call, whatever it returns', async (t) => {
  const { api } = await limited(t);
  for (let i = 1; i <= 5; i++) {
    const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: `Client ${i}` } });
    t.equal(r.status, 201);
  }
  const page = await api.request('GET', '/v1/contacts?limit=100&page=1');
  t.equal(page.status, 200);
  t.equal(page.body.data.length, 5, 'one request returning 5 contacts');
  const pages = await statuses(api, 3, '/v1/contacts?limit=2&page=2');
  t.same(pages, [200, 200, 200]);
  // 5 creates + 1 list + 3 pages = 9 calls so far: 51 more pass.
  t.same(await statuses(api, 51), Array(51).fill(200));
  expectLimited(t, await api.request('GET', '/v1/contacts?limit=100'));
});

t.test('without rateLimits (the servers of other tests) there is no limit', async (t) => {
  const books = await newBooks(t, { clock: start, organisation: soleTrader });
  const api = await serveBooks(t, books);
  const out: number[] = [];
  for (let i = 0; i < 130; i++) out.push((await api.request('GET', '/v1/accounts')).status);
  t.same(out, Array(130).fill(200), '130 requests in one minute, all 200');
});

/** The X-RateLimit-* headers of a reply, as numbers (NaN when missing). */
function rateHeaders(r: Reply): { limit: number; remaining: number; reset: number } {
  const n = (name: string) => Number(r.headers.get(name) ?? NaN);
  return { limit: n('x-ratelimit-limit'), remaining: n('x-ratelimit-remaining'), reset: n('x-ratelimit-reset') };
}

// 2026-11-21T10:00:00Z in Unix seconds: 2026-01-01 is day 20454 (1767225600); Jan to Oct are 304 days, +20 = 324 days
// (27993600 s) to 1795219200, +10 h (36000 s) = 1795255200.
const startSeconds = 1795255200;

t.test('every counted response carries X-RateLimit-Limit, -Remaining and -Reset, the sliding window as it stands', async (t) => {
  const { api, clock } = await limited(t);
  const first = await api.request('GET', '/v1/accounts');
  t.equal(first.status, 200);
  // One of 60 used; the window frees that slot 60 s after it was taken.
  t.same(rateHeaders(first), { limit: 60, remaining: 59, reset: startSeconds + 60 });
  clock.advance(10_000);
  const missing = await api.request('GET', '/v1/contacts/not-an-id');
  t.equal(missing.status, 400, 'a refused request (a malformed id) is counted and has the headers too');
  t.same(rateHeaders(missing), { limit: 60, remaining: 58, reset: startSeconds + 60 }, 'Reset is still when the oldest leaves the window');
  const remaining: number[] = [];
  for (let i = 0; i < 58; i++) remaining.push(rateHeaders(await api.request('GET', '/v1/accounts')).remaining);
  t.same(
    remaining,
    [...Array(58).keys()].map((i) => 57 - i),
    'Remaining falls by one a request, 57 down to 0',
  );

  const refused = await api.request('GET', '/v1/accounts');
  // Now start + 10 s; the oldest request (at start) leaves at start + 60 s: 50 s to wait.
  t.equal(expectLimited(t, refused), 50, 'Retry-After 50');
  t.same(rateHeaders(refused), { limit: 60, remaining: 0, reset: startSeconds + 60 }, 'the 429 has Remaining 0 and the same Reset');

  clock.advance(50_000);
  const after = await api.request('GET', '/v1/accounts');
  t.equal(after.status, 200, 'at Reset the first slot is free');
  // The 59 requests at start + 10 s and this one fill the window again; the oldest of them leave at start + 70 s.
  t.same(rateHeaders(after), { limit: 60, remaining: 0, reset: startSeconds + 70 });

  const unknownKey = await api.request('GET', '/v1/accounts', { key: 'sk_live_nosuchkey' });
  t.equal(unknownKey.status, 401);
  t.equal(unknownKey.headers.get('x-ratelimit-limit'), null, 'a request with no recognised key is not counted, and has no headers');
});

t.test('key creation shows the limit nearest to refusing: its own 10 rather than the plan', async (t) => {
  const { api } = await limited(t, company);
  const created = await api.request('POST', '/v1/api-keys', { body: { name: 'key 1' } });
  t.equal(created.status, 201);
  // The plan has 119 of 120 left, key creation 9 of 10.
  t.same(rateHeaders(created), { limit: 10, remaining: 9, reset: startSeconds + 60 });
  t.same(rateHeaders(await api.request('GET', '/v1/accounts')), { limit: 120, remaining: 118, reset: startSeconds + 60 }, 'other requests show the plan');
});

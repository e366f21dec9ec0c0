/**
 * Two servers over one PostgreSQL database, each with its own store (its
 * own pool and NOTIFY listener), as two acct serve processes behind a load
 * balancer: the plan's rate limit is counted once across both; ten
 * identical requests with one Idempotency-Key split between them make one
 * contact; two webhook senders deliver each event once; a key revoked
 * through one is refused by the other. Needs ACCT_TEST_DATABASE_URL (CI's
 * PostgreSQL pass sets it); on SQLite each server counts its own requests.
 */
import t, { type Test } from 'tap';
import { WebhookSender } from '../../src/engine/integration/webhook-sender.js';
import { anotherStore, eventually, fixedClock, newBooks, serveBooks, systemClock, testDatabaseUrl } from '../helpers/index.js';
import { loopbackPolicy, selfSigned, startReceiver } from '../webhooks/support.js';

const skip = testDatabaseUrl() === undefined ? 'no PostgreSQL: set ACCT_TEST_DATABASE_URL (CI sets it in its PostgreSQL pass)' : false;

async function twoServers(t: Test, options: Parameters<typeof newBooks>[1] = {}, rateLimits = false) {
  const books = await newBooks(t, options);
  const second = await anotherStore(t, books.dataDir);
  const a = await serveBooks(t, books, { rateLimits, webhookPolicy: loopbackPolicy });
  const b = await serveBooks(t, { ...books, store: second }, { rateLimits, webhookPolicy: loopbackPolicy });
  return { books, second, a, b };
}

t.test('the plan rate limit is counted once across two servers', { skip }, async (t) => {
  // The clock stands still, so that the minute does not slide during the test.
  const { a, b } = await twoServers(t, { organisation: { businessType: 'sole_trader', vatScheme: 'not_registered' }, clock: '2026-11-28T10:00:00Z' }, true);
  // Sole Trader: 60 requests a minute, 30 through each server.
  for (let i = 0; i < 60; i++) {
    const r = await (i % 2 === 0 ? a : b).request('GET', '/v1/accounts');
    if (r.status !== 200) t.fail(`request ${i + 1} of 60: ${r.status}`);
  }
  for (const [name, api] of [
    ['first', a],
    ['second', b],
  ] as const) {
    const r = await api.request('GET', '/v1/accounts');
    t.equal(r.status, 429, `the 61st through the ${name} server is refused`);
    t.equal(r.body.error.code, 'rate_limited');
    t.equal(r.headers.get('retry-after'), '60', 'and told to retry when the first of the 60 is a minute old');
  }
});

t.test('ten identical requests with one Idempotency-Key, split between two servers: one contact', { skip }, async (t) => {
  const { books, a, b } = await twoServers(t);
  const body = { name: 'Pennine Slate Co', contactType: 'customer' };
  const replies = await Promise.all(
    Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).request('POST', '/v1/contacts', { body, headers: { 'Idempotency-Key': 'slate-1' } })),
  );
  const created = replies.filter((r) => r.status === 201);
  t.ok(created.length >= 1, `at least one 201: ${replies.map((r) => r.status).join(' ')}`);
  for (const r of replies) t.ok(r.status === 201 || r.status === 409, `201 or 409 while the first is under way: ${r.status}`);
  t.same(new Set(created.map((r) => r.body.data.id)).size, 1, 'every 201 is the same contact');
  const rows = await books.store.org(books.organisationId, 'live').db.selectFrom('contacts').select('id').where('name', '=', body.name).execute();
  t.equal(rows.length, 1, 'one contact in the books');
});

t.test('two webhook senders over one database deliver each event once', { skip }, async (t) => {
  const { books, second, a, b } = await twoServers(t);
  const tls = selfSigned(t.testdir());
  const receiver = await startReceiver(t, tls);
  const r = await a.request('POST', '/v1/webhooks', { body: { url: receiver.url('/hook'), events: ['contact.created'] } });
  t.equal(r.status, 201, JSON.stringify(r.body?.error ?? ''));
  for (const store of [books.store, second]) {
    const sender = WebhookSender.start(store, { clock: systemClock, policy: loopbackPolicy, ca: tls.cert, report: (m) => t.fail(`a sender reported: ${m}`) });
    t.teardown(() => sender.stop());
    await sender.started;
  }
  const contacts = 20;
  for (let i = 0; i < contacts; i++) {
    const c = await (i % 2 === 0 ? a : b).request('POST', '/v1/contacts', { body: { name: `Customer ${i}`, contactType: 'customer' } });
    t.equal(c.status, 201);
  }
  await receiver.waitFor(contacts);
  // Time for a second delivery of any event to arrive, had both senders attempted it.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const ids = receiver.hits.map((h) => h.headers['x-service-delivery']);
  t.equal(ids.length, contacts, 'one request per event');
  t.equal(new Set(ids).size, contacts, 'no delivery sent twice');
  const recorded = await eventually(
    () => books.store.org(books.organisationId, 'live').db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute(),
    (rows) => rows.length === contacts && rows.every((d) => d.status === 'succeeded'),
  );
  t.ok(
    recorded.every((d) => d.attempts === 1),
    'each recorded as succeeded at its first attempt',
  );
});

t.test('a key revoked through one server is refused by the other', { skip }, async (t) => {
  const { a, b } = await twoServers(t, { clock: fixedClock('2026-11-28T10:00:00Z') });
  const made = await a.request('POST', '/v1/api-keys', { body: { name: 'CI', scopes: ['transactions:read'] } });
  t.equal(made.status, 201, JSON.stringify(made.body?.error ?? ''));
  const key = made.body.data.key as string;
  t.equal((await b.request('GET', '/v1/transactions', { key })).status, 200, 'the second server knows the key (and keeps it)');
  t.equal((await a.request('DELETE', `/v1/api-keys/${made.body.data.id as string}`)).status, 200);
  const refused = await eventually(
    () => b.request('GET', '/v1/transactions', { key }),
    (r) => r.status === 401,
  );
  t.equal(refused.body.error.code, 'unauthorized', 'the second server heard of the revocation (NOTIFY) and refuses it');
});

/**
 * The webhook sender, called directly with a clock the test moves, against
 * a real HTTPS receiver with a self-signed certificate: the request and its
 * signature (checked by openssl and by `acct webhooks verify`), the
 * delivery log and stats, which events are sent, the retry schedule, time-outs,
 * rotation, inactive endpoints, and the address rule at delivery time.
 */
import t, { type Test } from 'tap';
import { type Api, type Books, generousMs, movingClock, type MovingClock, newBooks } from '../helpers/index.js';
import { contactOk } from '../ledger-http/support.js';
import {
  deliverDue,
  fanOut,
  maxAttempts,
  responseTimeoutMs,
  retryDelaysMs,
  sendWebhooks,
  type SenderOptions,
} from '../../src/engine/integration/webhook-sender.js';
import type { DbHandle } from '../../src/store/store.js';
import type { OrgDb } from '../../src/store/tables.js';
import {
  cliVerify,
  loopbackPolicy,
  opensslSignature,
  selfSigned,
  serveWebhooks,
  startReceiver,
  uuidShape,
  type Hit,
  type Receiver,
  type Tls,
} from './support.js';

/** 21 November 2026 10:00:00 UTC: Unix time 1795255200. */
const start = '2026-11-21T10:00:00.000Z';
const startUnix = 1795255200;

const tls: Tls = selfSigned(t.testdir());

interface World {
  readonly clock: MovingClock;
  readonly books: Books;
  readonly api: Api;
  readonly receiver: Receiver;
  readonly org: DbHandle<OrgDb>;
  readonly options: SenderOptions;
}

async function world(t: Test, answer: number | 'hang' | 'stall' = 200): Promise<World> {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveWebhooks(t, books);
  const receiver = await startReceiver(t, tls, { answer });
  return { clock, books, api, receiver, org: books.store.org(books.organisationId, 'live'), options: { clock, policy: loopbackPolicy, ca: tls.cert } };
}

/** Register an endpoint at the receiver; its id and secret. */
async function endpoint(t: Test, w: World, events: string[] = ['contact.created', 'invoice.created']): Promise<{ id: string; secret: string }> {
  const r = await w.api.request('POST', '/v1/webhooks', { body: { url: w.receiver.url('/hook'), events, description: 'receiver' } });
  t.equal(r.status, 201, `endpoint registered: ${JSON.stringify(r.body?.error ?? '')}`);
  return { id: r.body.data.id, secret: r.body.data.secret };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliveries are checked field by field
async function deliveries(w: World, endpointId: string, query = ''): Promise<any[]> {
  const r = await w.api.request('GET', `/v1/webhook-endpoints/${endpointId}/deliveries${query}`);
  if (r.status !== 200) throw new Error(`deliveries gave ${r.status}`);
  return r.body.data;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- endpoints are checked field by field
async function listed(w: World, endpointId: string): Promise<any> {
  const r = await w.api.request('GET', '/v1/webhooks');
  return r.body.data.endpoints.find((e: { id: string }) => e.id === endpointId);
}

const bodyOf = (hit: Hit) => JSON.parse(hit.raw.toString('utf8'));
const iso = (ms: number) => new Date(Date.parse(start) + ms).toISOString();

t.test('a contact.created delivery: the request, its signature, the log and the stats', async (t) => {
  const w = await world(t);
  const { id, secret } = await endpoint(t, w);
  const contactId = await contactOk(t, w.api, { name: 'Café Crème Ltd', email: 'accounts@client-one.test', notes: 'pays in £, “promptly”' });
  const contact = (await w.api.request('GET', `/v1/contacts/${contactId}`)).body.data;

  t.equal(await sendWebhooks(w.org, w.options), 1, 'one delivery attempted');
  t.equal(w.receiver.hits.length, 1, 'the receiver got exactly one request');
  const hit = w.receiver.hits[0] as Hit;
  t.equal(hit.method, 'POST');
  t.equal(hit.path, '/hook');
  t.equal(hit.headers['content-type'], 'application/json');
  t.equal(hit.headers['x-service-event'], 'contact.created');
  t.equal(hit.headers['x-service-timestamp'], String(startUnix), "X-Service-Timestamp: the clock's Unix seconds");
  t.match(hit.headers['x-service-delivery'], uuidShape, 'X-Service-Delivery is a UUID');
  t.match(hit.headers['x-service-signature'], /^[0-9a-f]{64}$/, 'the signature is 64 lowercase hex digits');

  const body = bodyOf(hit);
  t.same(Object.keys(body), ['event', 'timestamp', 'data']);
  t.equal(body.event, 'contact.created');
  t.equal(body.timestamp, start, 'the body timestamp is when the event happened');
  t.same(body.data, contact, 'data is the contact as the API shows it');
  t.equal(body.data.name, 'Café Crème Ltd');
  t.equal(hit.headers['content-length'], String(hit.raw.length), 'Content-Length counts bytes, not characters');

  const ts = String(hit.headers['x-service-timestamp']);
  t.equal(await opensslSignature(secret, ts, hit.raw), hit.headers['x-service-signature'], 'openssl computes the same HMAC-SHA256 over "<ts>.<body>"');
  const valid = await cliVerify(secret, hit, { tolerance: 0 });
  t.equal(valid.status, 0, `acct webhooks verify exits 0: ${valid.stderr}`);
  t.match(valid.stdout, /^valid/);
  const wrongSecret = await cliVerify(`${secret}x`, hit, { tolerance: 0 });
  t.equal(wrongSecret.status, 1, 'another secret: exit 1');
  t.match(wrongSecret.stdout, /^invalid/);
  const tampered = await cliVerify(secret, { ...hit, raw: Buffer.from(hit.raw.toString('utf8').replace('Crème', 'Creme')) }, { tolerance: 0 });
  t.equal(tampered.status, 1, 'a changed body: exit 1');

  const log = await deliveries(w, id);
  t.equal(log.length, 1);
  t.match(log[0], {
    id: hit.headers['x-service-delivery'],
    endpointId: id,
    eventId: /^evt_/,
    eventType: 'contact.created',
    status: 'succeeded',
    attempts: 1,
    responseStatus: 200,
    error: null,
    createdAt: start,
    lastAttemptAt: start,
    nextAttemptAt: null,
    completedAt: start,
  });
  t.type(log[0].latencyMs, 'number', 'latencyMs is a number');
  t.ok(log[0].latencyMs >= 0);
  t.same((await listed(w, id)).stats24h, { total: 1, succeeded: 1, failed: 0, pending: 0 });

  t.equal(await sendWebhooks(w.org, w.options), 0, 'a second round has nothing to do');
  t.equal(w.receiver.hits.length, 1, 'nothing is sent twice');
});

t.test('only subscribed events raised after registration are sent', async (t) => {
  const w = await world(t);
  const before = await contactOk(t, w.api, { name: 'Before Ltd' });
  w.clock.advance(1000);
  const { id } = await endpoint(t, w);
  w.clock.advance(1000);
  const put = await w.api.request('PUT', `/v1/contacts/${before}`, { body: { name: 'Before Renamed Ltd' } });
  t.equal(put.status, 200, 'contact.updated raised (not subscribed)');
  const invoice = await w.api.request('POST', '/v1/invoices', {
    body: { contactId: before, issueDate: '2026-11-01', items: [{ description: 'Consulting', quantity: 1, unitPrice: 50000, vatRate: 'standard' }] },
  });
  t.equal(invoice.status, 201, 'invoice.created raised (subscribed)');

  t.equal(await sendWebhooks(w.org, w.options), 1, 'one delivery');
  t.equal(w.receiver.hits.length, 1);
  const hit = w.receiver.hits[0] as Hit;
  t.equal(hit.headers['x-service-event'], 'invoice.created');
  const body = bodyOf(hit);
  t.equal(body.event, 'invoice.created');
  t.equal(body.data.id, invoice.body.data.id);
  t.equal(body.data.total, 60000, '£500.00 + 20% VAT');
  t.equal(body.timestamp, iso(2000));
  const log = await deliveries(w, id);
  t.same(
    log.map((d) => d.eventType),
    ['invoice.created'],
    'neither the earlier contact.created nor contact.updated made a delivery',
  );
});

t.test('a failing receiver: retried 1 min, 5 min, 30 min and 2 h after, then failed; the endpoint stays active', async (t) => {
  const w = await world(t, 500);
  const { id, secret } = await endpoint(t, w);
  await contactOk(t, w.api, { name: 'Retry Ltd' });

  t.equal(await sendWebhooks(w.org, w.options), 1, 'attempt 1 now');
  t.equal(w.receiver.hits.length, 1);
  let [d] = await deliveries(w, id);
  t.match(d, { status: 'pending', attempts: 1, responseStatus: 500, lastAttemptAt: start, nextAttemptAt: iso(60_000), completedAt: null });
  t.type(d.error, 'string');
  t.same((await listed(w, id)).stats24h, { total: 1, succeeded: 0, failed: 0, pending: 1 });

  // [wait before this attempt, its time from the start, the next attempt's time from the start]
  const schedule: [number, number, number | null][] = [
    [60_000, 60_000, 360_000],
    [300_000, 360_000, 2_160_000],
    [1_800_000, 2_160_000, 9_360_000],
    [7_200_000, 9_360_000, null],
  ];
  for (const [wait, at, next] of schedule) {
    const attemptNo = w.receiver.hits.length + 1;
    w.clock.advance(wait - 1);
    t.equal(await deliverDue(w.org, w.options), 0, `attempt ${attemptNo}: nothing 1 ms before it is due`);
    t.equal(w.receiver.hits.length, attemptNo - 1);
    w.clock.advance(1);
    t.equal(await deliverDue(w.org, w.options), 1, `attempt ${attemptNo} at +${at / 1000} s`);
    t.equal(w.receiver.hits.length, attemptNo);
    [d] = await deliveries(w, id);
    t.equal(d.attempts, attemptNo);
    t.equal(d.lastAttemptAt, iso(at));
    t.equal(d.responseStatus, 500, 'responseStatus 500 recorded');
    if (next === null) {
      t.match(d, { status: 'failed', nextAttemptAt: null, completedAt: iso(at) }, 'failed after the fifth attempt');
    } else {
      t.match(d, { status: 'pending', nextAttemptAt: iso(next), completedAt: null });
    }
  }
  w.clock.advance(24 * 3600_000 - 9_360_000 - 1);
  t.equal(await deliverDue(w.org, w.options), 0, 'no sixth attempt');
  t.equal(w.receiver.hits.length, 5);

  const ids = new Set(w.receiver.hits.map((h) => h.headers['x-service-delivery']));
  t.same([...ids], [d.id], 'the same X-Service-Delivery on every attempt');
  t.same(
    w.receiver.hits.map((h) => h.headers['x-service-timestamp']),
    ['1795255200', '1795255260', '1795255560', '1795257360', '1795264560'],
    'each attempt is signed at its own time',
  );
  for (const h of w.receiver.hits) {
    t.equal(h.raw.toString('utf8'), (w.receiver.hits[0] as Hit).raw.toString('utf8'), 'the same body on every attempt');
    t.equal(
      await opensslSignature(secret, String(h.headers['x-service-timestamp']), h.raw),
      h.headers['x-service-signature'],
      'each attempt is correctly signed',
    );
  }

  const shown = await listed(w, id);
  t.equal(shown.isActive, true, 'the endpoint stays active');
  t.same(shown.stats24h, { total: 1, succeeded: 0, failed: 1, pending: 0 });
  t.same((await deliveries(w, id, '?status=failed')).length, 1);

  w.receiver.answer = 200;
  await contactOk(t, w.api, { name: 'Later Ltd' });
  t.equal(await sendWebhooks(w.org, w.options), 1, 'a later event is still delivered');
  t.equal(w.receiver.hits.length, 6);
  const later = w.receiver.hits[5] as Hit;
  t.equal(bodyOf(later).data.name, 'Later Ltd');
  t.not(later.headers['x-service-delivery'], d.id, 'a new delivery id');
  const log = await deliveries(w, id);
  t.same(
    log.map((x) => [x.status, x.attempts]),
    [
      ['succeeded', 1],
      ['failed', 5],
    ],
    'newest first',
  );
});

t.test('any 2xx succeeds; a redirect or a 4xx is a failure and is not followed', async (t) => {
  const w = await world(t, 204);
  const { id } = await endpoint(t, w);
  await contactOk(t, w.api, { name: 'No Content Ltd' });
  await sendWebhooks(w.org, w.options);
  t.match((await deliveries(w, id))[0], { status: 'succeeded', responseStatus: 204 });

  for (const [status, retryAt] of [
    [302, 61_000],
    [404, 62_000],
  ] as const) {
    w.receiver.answer = status;
    w.clock.advance(1000);
    await contactOk(t, w.api, { name: `Status ${status} Ltd` });
    const hitsBefore = w.receiver.hits.length;
    t.equal(await sendWebhooks(w.org, w.options), 1);
    t.equal(w.receiver.hits.length, hitsBefore + 1, 'one request, no redirect followed');
    t.match((await deliveries(w, id))[0], { status: 'pending', attempts: 1, responseStatus: status, nextAttemptAt: iso(retryAt) });
  }
});

/**
 * The time-out of the two tests below: long enough for the request to reach the receiver on a loaded machine (500 ms
 * was not: the attempt gave up before the receiver had the whole request), short beside the default of 30 s.
 */
const shortTimeoutMs = 3000;

t.test('a receiver that never answers: a failure with responseStatus null after the time-out', async (t) => {
  const w = await world(t, 'hang');
  const { id } = await endpoint(t, w);
  await contactOk(t, w.api, { name: 'Slow Ltd' });
  const began = Date.now();
  t.equal(await sendWebhooks(w.org, { ...w.options, timeoutMs: shortTimeoutMs }), 1);
  const took = Date.now() - began;
  // Not before the time-out (a lower bound, which load cannot break), and well before the default one: the option is used.
  t.ok(took >= shortTimeoutMs - 50, `gave up at the time-out, not before (${took} ms)`);
  t.ok(took < generousMs, `and not at the default ${responseTimeoutMs / 1000} s (${took} ms)`);
  t.equal(w.receiver.hits.length, 1, 'the request was sent');
  const [d] = await deliveries(w, id);
  t.match(d, { status: 'pending', attempts: 1, responseStatus: null, nextAttemptAt: iso(60_000), completedAt: null });
  t.type(d.error, 'string');
  t.not(d.error, '');
  t.type(d.latencyMs, 'number');
  t.ok(d.latencyMs >= shortTimeoutMs - 50, `latency ${d.latencyMs} ms`);
});

t.test('a receiver that sends 200 and then stalls mid-body: the attempt still ends at the time-out', async (t) => {
  const w = await world(t, 'stall');
  const { id } = await endpoint(t, w);
  await contactOk(t, w.api, { name: 'Stalled Ltd' });
  const began = Date.now();
  const round = sendWebhooks(w.org, { ...w.options, timeoutMs: shortTimeoutMs });
  // Without the time-out reaching the body, the round would never end: 20 s (the default time-out is 30 s) tells them apart.
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([round.then(() => 'ended'), new Promise((resolve) => (timer = setTimeout(() => resolve('still running'), generousMs)))]);
  clearTimeout(timer);
  t.equal(outcome, 'ended', `the round ends (after ${Date.now() - began} ms)`);
  t.equal(w.receiver.hits.length, 1);
  const [d] = await deliveries(w, id);
  t.equal(d.attempts, 1, 'the attempt is recorded');
  t.not(d.status, 'succeeded', 'an answer cut off is not a success');
  t.equal(d.responseStatus, 200, 'the status that did arrive is kept');
  t.match(d.error, /^HTTP 200, but its body did not end within/);
});

t.test('a refused connection: a failure with responseStatus null', async (t) => {
  const w = await world(t);
  const { id } = await endpoint(t, w);
  await w.receiver.close();
  await contactOk(t, w.api, { name: 'Nobody Home Ltd' });
  t.equal(await sendWebhooks(w.org, w.options), 1);
  const [d] = await deliveries(w, id);
  t.match(d, { status: 'pending', attempts: 1, responseStatus: null, nextAttemptAt: iso(60_000) });
  t.type(d.error, 'string');
});

t.test('with the strict policy a private address is refused at delivery: failure recorded, nothing sent', async (t) => {
  const w = await world(t);
  const { id } = await endpoint(t, w);
  const local = await w.api.request('POST', '/v1/webhooks', { body: { url: `https://localhost:${w.receiver.port}/named`, events: ['contact.created'] } });
  t.equal(local.status, 201);
  await contactOk(t, w.api, { name: 'Rebind Ltd' });
  const strict = { ...w.options, policy: { allowHttp: false, allowPrivate: false } };
  t.equal(await sendWebhooks(w.org, strict), 2, 'both deliveries attempted');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(w.receiver.hits.length, 0, 'nothing reached the receiver');
  for (const endpointId of [id, local.body.data.id]) {
    const [d] = await deliveries(w, endpointId);
    t.match(d, { status: 'pending', attempts: 1, responseStatus: null, nextAttemptAt: iso(60_000) });
    t.match(d.error, /127\.0\.0\.1|::1/, `the error names the private address: ${d.error}`);
  }
});

t.test('without the CA the self-signed receiver is not trusted', async (t) => {
  const w = await world(t);
  const { id } = await endpoint(t, w);
  await contactOk(t, w.api, { name: 'Untrusted Ltd' });
  t.equal(await sendWebhooks(w.org, { clock: w.clock, policy: loopbackPolicy }), 1);
  t.equal(w.receiver.hits.length, 0, 'the TLS handshake failed before any request');
  t.match((await deliveries(w, id))[0], { status: 'pending', attempts: 1, responseStatus: null });
});

t.test('after rotation deliveries are signed with the new secret only, retries included', async (t) => {
  const w = await world(t, 500);
  const { id, secret: old } = await endpoint(t, w);
  await contactOk(t, w.api, { name: 'Rotation Ltd' });
  await sendWebhooks(w.org, w.options);
  const first = w.receiver.hits[0] as Hit;
  t.equal(
    await opensslSignature(old, String(first.headers['x-service-timestamp']), first.raw),
    first.headers['x-service-signature'],
    'attempt 1: the old secret',
  );

  const rotated = await w.api.request('POST', `/v1/webhooks/${id}/rotate`);
  t.equal(rotated.status, 200);
  const secret = rotated.body.data.secret as string;
  t.not(secret, old);

  w.receiver.answer = 200;
  w.clock.advance(60_000);
  t.equal(await deliverDue(w.org, w.options), 1, 'the retry');
  const retry = w.receiver.hits[1] as Hit;
  const ts = String(retry.headers['x-service-timestamp']);
  t.equal(await opensslSignature(secret, ts, retry.raw), retry.headers['x-service-signature'], 'the retry is signed with the new secret');
  t.not(await opensslSignature(old, ts, retry.raw), retry.headers['x-service-signature'], 'not with the old one');
  t.equal((await cliVerify(secret, retry, { tolerance: 0 })).status, 0, 'acct webhooks verify: valid with the new secret');
  const withOld = await cliVerify(old, retry, { tolerance: 0 });
  t.equal(withOld.status, 1, 'and invalid with the old one');
  t.match(withOld.stdout, /^invalid/);

  await contactOk(t, w.api, { name: 'After Rotation Ltd' });
  await sendWebhooks(w.org, w.options);
  const fresh = w.receiver.hits[2] as Hit;
  t.equal((await cliVerify(secret, fresh, { tolerance: 0 })).status, 0, 'a new event: valid with the new secret');
  t.equal((await cliVerify(old, fresh, { tolerance: 0 })).status, 1, 'and invalid with the old one');
});

t.test("an inactive endpoint's pending deliveries wait, and it gets no new ones", async (t) => {
  const w = await world(t, 500);
  const { id } = await endpoint(t, w);
  await contactOk(t, w.api, { name: 'Waiting Ltd' });
  await sendWebhooks(w.org, w.options);
  t.equal((await w.api.request('PATCH', `/v1/webhooks/${id}`, { body: { isActive: false } })).status, 200);
  w.receiver.answer = 200;
  w.clock.advance(10 * 60_000);
  await contactOk(t, w.api, { name: 'While Inactive Ltd' });
  t.equal(await sendWebhooks(w.org, w.options), 0, 'nothing attempted while inactive');
  t.equal(w.receiver.hits.length, 1);
  t.equal((await deliveries(w, id)).length, 1, 'no delivery made for the event raised while inactive');

  t.equal((await w.api.request('PATCH', `/v1/webhooks/${id}`, { body: { isActive: true } })).status, 200);
  t.equal(await sendWebhooks(w.org, w.options), 1, 'the waiting delivery goes once active again');
  t.equal(w.receiver.hits.length, 2);
  t.equal(bodyOf(w.receiver.hits[1] as Hit).data.name, 'Waiting Ltd');
  t.match((await deliveries(w, id))[0], { status: 'succeeded', attempts: 2, responseStatus: 200 });
});

t.test('a deleted endpoint gets nothing more', async (t) => {
  const w = await world(t, 500);
  const { id } = await endpoint(t, w);
  await contactOk(t, w.api, { name: 'Gone Ltd' });
  await sendWebhooks(w.org, w.options);
  t.equal((await w.api.request('DELETE', `/v1/webhooks/${id}`)).status, 200);
  w.clock.advance(60_000);
  t.equal(await deliverDue(w.org, w.options), 0, 'its pending retry is not attempted');
  t.equal(w.receiver.hits.length, 1);
  const left = await w.org.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('endpoint_id', '=', id)
    .executeTakeFirstOrThrow();
  t.equal(Number(left.n), 0, 'its delivery log went with it');
});

t.test('the schedule the spec gives', async (t) => {
  t.equal(responseTimeoutMs, 30_000, 'a response is awaited 30 s');
  t.same([...retryDelaysMs], [60_000, 300_000, 1_800_000, 7_200_000], '1 min, 5 min, 30 min, 2 h');
  t.equal(maxAttempts, 5);
});

t.test('fanOut makes one delivery per subscribed endpoint, each with its own id', async (t) => {
  const w = await world(t);
  const a = await endpoint(t, w, ['contact.created']);
  const b = await endpoint(t, w, ['contact.created', 'contact.updated']);
  await endpoint(t, w, ['invoice.paid']);
  await contactOk(t, w.api, { name: 'Fan Ltd' });
  t.equal(await fanOut(w.org, w.clock), 1, 'one event handled');
  t.equal(await fanOut(w.org, w.clock), 0, 'and not again');
  t.equal(w.receiver.hits.length, 0, 'fanOut sends nothing');
  t.equal(await deliverDue(w.org, w.options), 2);
  t.equal(w.receiver.hits.length, 2);
  const ids = w.receiver.hits.map((h) => h.headers['x-service-delivery']);
  t.not(ids[0], ids[1], 'distinct delivery ids');
  t.equal((await deliveries(w, a.id)).length, 1);
  t.equal((await deliveries(w, b.id)).length, 1);
  const signedWith: number[] = [];
  for (const h of w.receiver.hits) {
    const ts = String(h.headers['x-service-timestamp']);
    const byA = (await opensslSignature(a.secret, ts, h.raw)) === h.headers['x-service-signature'];
    const byB = (await opensslSignature(b.secret, ts, h.raw)) === h.headers['x-service-signature'];
    signedWith.push(byA && !byB ? 0 : byB && !byA ? 1 : -1);
  }
  t.same(signedWith.sort(), [0, 1], "each endpoint's delivery is signed with its own secret");
});

/**
 * The webhook sender as acct serve runs it (WebhookSender), over a real
 * server and a real HTTPS receiver, with a cache smaller than the
 * organisations: it sleeps while there is nothing to send (it opens no
 * organisation's books), wakes at once for this process's new events, at
 * their time for due retries, and within its sweep for what another
 * process wrote.
 *
 * No assertion here depends on how fast the machine is (CI runs on two
 * shared cores beside other jobs). "At once" is checked by leaving the
 * sender nothing else that could send in time: its sweep every 60 s and a
 * retry's timer a real minute away, while a wait for the delivery gives up
 * after 20 s. "At its time" is a lower bound, which no load can break, and
 * "brought forward" is "before the time it had been due". A receiver that
 * never answers has a 60 s time-out, so its attempt stays open until the test
 * closes the receiver, not for a few seconds that a loaded machine may overrun.
 * "Without spinning" counts the timers set while waiting, not CPU time: a
 * loaded machine can make an idle process use hundreds of ms in a second
 * and give a spinning one less than that.
 */
import t, { type Test } from 'tap';
import { eventually, generousMs, movingClock, newBooks, serveBooks, systemClock, type Api, type Books } from '../helpers/index.js';
import { WebhookSender } from '../../src/engine/integration/webhook-sender.js';
import { RequestLogWriter } from '../../src/engine/integration/request-log-writer.js';
import { createContact } from '../../src/engine/sales/contact-ops.js';
import { parseOperationInput } from '../../src/engine/input.js';
import type { Clock } from '../../src/engine/clock.js';
import type { Mode, Store } from '../../src/store/store.js';
import { loopbackPolicy, selfSigned, startReceiver, type Hit, type Receiver } from '../webhooks/support.js';
import { moreOrganisations, storeOver } from './support.js';

const tls = selfSigned(t.testdir());

interface World {
  readonly books: Books;
  /** The server's store: 4 organisations, 8 sets of books, 2 open at most. */
  readonly store: Store;
  readonly api: Api;
  readonly receiver: Receiver;
  readonly endpointId: string;
  /** The other organisations' live keys. */
  readonly otherKeys: readonly string[];
  /** The organisations' files opened by the server's store since the test began watching. */
  readonly opened: string[];
  start(sweepMs?: number, clock?: Clock, more?: { concurrency?: number; timeoutMs?: number }): Promise<WebhookSender>;
}

async function world(t: Test, answer = 200): Promise<World> {
  const books = await newBooks(t);
  const others = await moreOrganisations(books, 3);
  const store = storeOver(t, books, 2);
  const requestLog = new RequestLogWriter(store, books.clock);
  const api = await serveBooks(t, { ...books, store }, { webhookPolicy: loopbackPolicy, requestLog });
  const receiver = await startReceiver(t, tls, { answer });
  const r = await api.request('POST', '/v1/webhooks', { body: { url: receiver.url('/hook'), events: ['contact.created'] } });
  t.equal(r.status, 201, `endpoint registered: ${JSON.stringify(r.body?.error ?? '')}`);
  const opened: string[] = [];
  store.onOpen((orgId, mode) => opened.push(`${orgId === books.organisationId ? 'ours' : 'another'} ${mode}`));
  const start = async (sweepMs = 60_000, clock: Clock = systemClock, more: { concurrency?: number; timeoutMs?: number } = {}) => {
    // The request log of the requests so far is written now, not by its next batch after the sender starts (it opens books).
    await new Promise((resolve) => setImmediate(resolve));
    await requestLog.flush();
    const sender = WebhookSender.start(store, {
      clock,
      policy: loopbackPolicy,
      ca: tls.cert,
      sweepMs,
      ...more,
      report: (message) => t.fail(`the sender reported: ${message}`),
    });
    t.teardown(() => sender.stop());
    await sender.started;
    return sender;
  };
  return { books, store, api, receiver, endpointId: r.body.data.id as string, otherKeys: others.map((o) => o.apiKey), opened, start };
}

const live = (books: Books, mode: Mode = 'live') => ({ orgId: books.organisationId, mode });
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliveries are checked field by field
async function deliveries(w: World): Promise<any[]> {
  const r = await w.api.request('GET', `/v1/webhook-endpoints/${w.endpointId}/deliveries`);
  if (r.status !== 200) throw new Error(`deliveries gave ${r.status}`);
  return r.body.data;
}

/** The deliveries once the first satisfies `done` (the sender records an attempt after the receiver has it), or as they are after 20 s. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliveries are checked field by field
const deliveriesOnce = (w: World, done: (first: any) => boolean) =>
  eventually(
    () => deliveries(w),
    (ds) => ds[0] !== undefined && done(ds[0]),
  );

/**
 * Wait `ms` and count the timers (setTimeout, setInterval, setImmediate) this
 * process sets meanwhile; the CPU it used, for the record. A sender asleep
 * sets none. One that re-arms its timer while it can start nothing (the bug
 * once seen here, about 70 ms of CPU a second unloaded) sets one a turn of
 * the event loop, hundreds a second, and a loaded machine slows it but
 * cannot hide it; CPU time could not tell it from an idle process on a
 * loaded machine (300 ms idle in 1 s was seen under CI).
 */
async function whileWaiting(ms: number): Promise<{ timers: number; cpuMs: number }> {
  const real = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval, setImmediate: globalThis.setImmediate };
  let timers = 0;
  const counted = <F extends (...args: never[]) => unknown>(f: F) =>
    function (this: unknown, ...args: unknown[]) {
      timers++;
      return Reflect.apply(f, this, args) as ReturnType<F>;
    } as unknown as F;
  const cpu = process.cpuUsage();
  globalThis.setTimeout = counted(real.setTimeout);
  globalThis.setInterval = counted(real.setInterval);
  globalThis.setImmediate = counted(real.setImmediate);
  try {
    await new Promise((resolve) => real.setTimeout(resolve, ms));
  } finally {
    Object.assign(globalThis, real);
  }
  const used = process.cpuUsage(cpu);
  return { timers, cpuMs: Math.round((used.user + used.system) / 1000) };
}

/** At most this many timers set in a second of waiting: an idle process sets a handful at most; a timer re-armed in a loop, hundreds. */
const idleTimers = 20;

t.test('idle, the sender opens nothing; a new contact is delivered at once', async (t) => {
  const w = await world(t);
  await w.start();
  t.ok(w.opened.length > 0, 'the first look opened the books it had to read');
  w.opened.length = 0;

  await delay(2500);
  t.same(w.opened, [], 'for 2.5 s idle, no books were opened (a poll every second opened all 8 twice)');
  t.equal(w.receiver.hits.length, 0);

  const posted = Date.now();
  const r = await w.api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Prompt Ltd' } });
  t.equal(r.status, 201);
  // Nothing polls (the sweep is every 60 s and looks only at what other processes wrote): only the wake-up on the
  // new event can send it within the wait (20 s at most; under a second unloaded).
  await w.receiver.waitFor(1, generousMs);
  const hit = w.receiver.hits[0] as Hit;
  t.pass(`delivered ${hit.at - posted} ms after the request, without waiting for a poll`);
  t.equal(JSON.parse(hit.raw.toString('utf8')).data.id, r.body.data.id);
  t.match(await deliveriesOnce(w, (d) => d.status === 'succeeded'), [{ status: 'succeeded', attempts: 1 }]);
  t.same(
    w.opened.filter((o) => o.startsWith('another')),
    [],
    "no other organisation's books were opened to send it",
  );
});

t.test('a failed delivery is retried when due, as kept by the sender and as moved by another process', async (t) => {
  const w = await world(t, 500);
  const sender = await w.start(300);
  const r = await w.api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Retry Ltd' } });
  t.equal(r.status, 201);
  await w.receiver.waitFor(1, generousMs);
  const [failed] = await deliveriesOnce(w, (d) => d.attempts === 1);
  t.match(failed, { status: 'pending', attempts: 1, responseStatus: 500 });
  const minuteLater = Date.parse(failed.nextAttemptAt);
  t.equal(minuteLater - Date.parse(failed.lastAttemptAt), 60_000, 'the retry is due a minute later');
  t.equal(
    await eventually(
      () => sender.dueAt(live(w.books)),
      (at) => at !== undefined,
    ),
    minuteLater,
    'the sender sleeps until exactly then',
  );

  // Another process (another connection to the file) brings the retry forward; the sender's sweep sees it.
  const other = storeOver(t, w.books);
  const due = Date.now() + 1500;
  await other.org(w.books.organisationId, 'live').write((trx) =>
    trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: new Date(due).toISOString() })
      .where('id', '=', failed.id)
      .execute(),
  );
  w.receiver.answer = 200;
  // Unless the sweep saw the move, the sender sleeps until the minute is up: the wait (20 s at most) would run out.
  await w.receiver.waitFor(2, generousMs);
  const retry = w.receiver.hits[1] as Hit;
  t.ok(retry.at >= due, `not before it was due (${retry.at - due} ms after)`);
  t.ok(retry.at < minuteLater, `but at the time it was moved to, not the minute it had been due (${retry.at - due} ms after)`);
  t.equal(retry.headers['x-service-delivery'], failed.id, 'the same delivery');
  t.match(await deliveriesOnce(w, (d) => d.attempts === 2), [{ id: failed.id, status: 'succeeded', attempts: 2 }]);
  t.equal(
    await eventually(
      () => sender.dueAt(live(w.books)),
      (at) => at === undefined,
    ),
    undefined,
    'nothing left to wake for',
  );
});

t.test('a retry due in the books when the sender starts is sent at its time', async (t) => {
  const w = await world(t, 500);
  const first = await w.start();
  t.equal((await w.api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Restart Ltd' } })).status, 201);
  await w.receiver.waitFor(1, generousMs);
  await first.stop(); // once its round in flight has recorded the attempt
  const [failed] = await deliveries(w);
  t.match(failed, { status: 'pending', attempts: 1 });
  // Due in 3 s: the second sender reads it at start, well before then unless the machine is very slow (see below).
  const due = Date.now() + 3000;
  await w.store.org(w.books.organisationId, 'live').write((trx) =>
    trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: new Date(due).toISOString() })
      .where('id', '=', failed.id)
      .execute(),
  );
  w.receiver.answer = 200;

  const second = await w.start();
  const planned = second.dueAt(live(w.books));
  // Its timer cannot have fired before `due`; after, the sender may already be sending it (no longer planned).
  if (Date.now() < due) t.equal(planned, due, 'read from the books at start');
  else t.ok(planned === due || planned === undefined, `read from the books at start (a start slower than 3 s: planned ${planned})`);
  // Its sweep is every 60 s and it knows these books already: only the time read at start can send it within the wait.
  await w.receiver.waitFor(2, generousMs);
  const retry = w.receiver.hits[1] as Hit;
  t.ok(retry.at >= due, `sent at its time, not before (${retry.at - due} ms after)`);
});

t.test("another process's new contact is delivered within the sweep", async (t) => {
  const w = await world(t);
  await w.start(300);
  const other = storeOver(t, w.books);
  const ctx = { ...w.books.ctx(), store: other, platform: other.platform };
  const posted = Date.now();
  const made = await createContact.run(
    ctx,
    parseOperationInput(createContact, { params: {}, query: {}, body: { contactType: 'customer', name: 'Elsewhere Ltd' } }),
  );
  // No event of this process wakes the sender for it: only its sweep (every 300 ms) can find it, within the wait or never.
  await w.receiver.waitFor(1, generousMs);
  const hit = w.receiver.hits[0] as Hit;
  t.equal(JSON.parse(hit.raw.toString('utf8')).data.id, (made.data as { id: string }).id);
  t.pass(`delivered ${hit.at - posted} ms after (sweep every 300 ms)`);
});

t.test('an endpoint made active again has its waiting deliveries sent at once', async (t) => {
  const w = await world(t, 500);
  const clock = movingClock(new Date().toISOString());
  await w.start(60_000, clock);
  t.equal((await w.api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Paused Ltd' } })).status, 201);
  await w.receiver.waitFor(1, generousMs);
  // The failure recorded (its retry due a minute after it) before the clock moves, else the retry would be due later.
  t.match(await deliveriesOnce(w, (d) => d.attempts === 1), [{ status: 'pending', attempts: 1 }]);
  t.equal((await w.api.request('PATCH', `/v1/webhooks/${w.endpointId}`, { body: { isActive: false } })).status, 200);
  // The retry falls due while the endpoint is inactive (by the sender's clock; its timer still waits a real minute).
  clock.advance(61_000);
  w.receiver.answer = 200;
  await delay(500);
  t.equal(w.receiver.hits.length, 1, 'nothing sent while inactive');
  t.equal((await w.api.request('PATCH', `/v1/webhooks/${w.endpointId}`, { body: { isActive: true } })).status, 200);
  // Its timer and its sweep are a real minute away: only the wake-up on the change can send it within the wait (20 s).
  await w.receiver.waitFor(2, generousMs);
  t.match(await deliveriesOnce(w, (d) => d.attempts === 2), [{ status: 'succeeded', attempts: 2 }]);
});

t.test('a receiver that does not answer holds up only its own books', async (t) => {
  const w = await world(t, 200);
  const silent = await startReceiver(t, tls, { answer: 'hang' });
  const key = w.otherKeys[0] as string;
  const r = await w.api.request('POST', '/v1/webhooks', { key, body: { url: silent.url('/hook'), events: ['contact.created'] } });
  t.equal(r.status, 201);
  // The silent receiver's round lasts its 60 s time-out: it is still waiting whenever the rest happens, however slowly.
  const sender = await w.start(60_000, systemClock, { timeoutMs: 60_000 });
  t.teardown(() => silent.close()); // before the sender stops (teardowns run last first), so that its round ends
  t.equal((await w.api.request('POST', '/v1/contacts', { key, body: { contactType: 'customer', name: 'Silent Ltd' } })).status, 201);
  await silent.waitFor(1, generousMs);
  const posted = Date.now();
  t.equal((await w.api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Heard Ltd' } })).status, 201);
  // Held behind the silent round, it would wait the time-out: 60 s, three times the wait.
  await w.receiver.waitFor(1, generousMs);
  const heard = w.receiver.hits[0] as Hit;
  t.ok(heard.at - (silent.hits[0] as Hit).at < 60_000, `delivered while the other books wait for their receiver (${heard.at - posted} ms after the request)`);
  await delay(200);
  const waiting = await whileWaiting(1000);
  t.ok(waiting.timers <= idleTimers, `the waiting sets no timer in a loop (${waiting.timers} timers set in 1 s, ${waiting.cpuMs} ms of CPU)`);
  await silent.close();
  await sender.stop();
});

t.test('with one round at a time, a silent receiver holds up no other books, and its open attempt costs no spinning', async (t) => {
  const w = await world(t, 200);
  const silent = await startReceiver(t, tls, { answer: 'hang' });
  const key = w.otherKeys[0] as string;
  t.equal((await w.api.request('POST', '/v1/webhooks', { key, body: { url: silent.url('/hook'), events: ['contact.created'] } })).status, 201);
  // The silent attempt stays open for its 60 s time-out, until the test closes the receiver; rounds run one at a time.
  await w.start(60_000, systemClock, { concurrency: 1, timeoutMs: 60_000 });
  t.teardown(() => silent.close());
  t.equal((await w.api.request('POST', '/v1/contacts', { key, body: { contactType: 'customer', name: 'Silent Ltd' } })).status, 201);
  await silent.waitFor(1, generousMs);
  // The round that started it has handed the attempt over and ended: the other books' round runs at once.
  t.equal((await w.api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Queued Ltd' } })).status, 201);
  await w.receiver.waitFor(1, generousMs);
  t.equal(silent.hits.length, 1, 'sent while the silent attempt was still open');
  await delay(200);
  const waiting = await whileWaiting(1000);
  t.ok(waiting.timers <= idleTimers, `nothing spins while the silent attempt is open (${waiting.timers} timers set in 1 s, ${waiting.cpuMs} ms of CPU)`);
});

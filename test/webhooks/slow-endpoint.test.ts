/**
 * One endpoint that never answers must not hold up the others (the spec:
 * the sender waits up to 30 seconds for a response; the endpoint stays
 * active). The sender as acct serve runs it, over a real server and real
 * HTTPS receivers. No assertion depends on the machine's speed: the silent
 * endpoint's time-out is a minute, while the healthy endpoint's second
 * delivery is awaited for 20 s, so it can only arrive in time if it did not
 * wait for the silent one.
 */
import t from 'tap';
import { newBooks, serveBooks, systemClock } from '../helpers/index.js';
import { WebhookSender } from '../../src/engine/integration/webhook-sender.js';
import { loopbackPolicy, selfSigned, startReceiver } from './support.js';

const tls = selfSigned(t.testdir());

t.test('a silent endpoint does not delay deliveries to a healthy one', async (t) => {
  const books = await newBooks(t);
  const api = await serveBooks(t, books, { webhookPolicy: loopbackPolicy });
  const healthy = await startReceiver(t, tls);
  const silent = await startReceiver(t, tls, { answer: 'hang' });
  for (const receiver of [healthy, silent]) {
    const r = await api.request('POST', '/v1/webhooks', { body: { url: receiver.url('/hook'), events: ['contact.created'] } });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  }
  const sender = WebhookSender.start(books.store, {
    clock: systemClock,
    policy: loopbackPolicy,
    ca: tls.cert,
    timeoutMs: 60_000,
    report: (message) => t.fail(`the sender reported: ${message}`),
  });
  await sender.started;

  const contact = (name: string) => api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name } });
  t.equal((await contact('First Ltd')).status, 201);
  await healthy.waitFor(1);
  await silent.waitFor(1);
  // The silent endpoint is still holding its first delivery (a minute's time-out) when the second event comes.
  t.equal((await contact('Second Ltd')).status, 201);
  await healthy.waitFor(2, 20_000);
  t.match(JSON.parse(healthy.hits[1]!.raw.toString()), { event: 'contact.created', data: { name: 'Second Ltd' } }, 'the second event, at once');
  t.equal(silent.hits.length, 1, 'the silent endpoint has still one attempt open');

  // Closing the silent receiver ends its attempt (a failure, retried later); the sender then stops at once.
  await silent.close();
  await sender.stop();
});

/**
 * Two senders over the same books (two acct serve processes on one data
 * directory) and an endpoint slow to answer: each delivery is attempted
 * once, by one of them, and every attempt is counted. The clock is the
 * test's; the receiver holds its answers until the test lets them go, so
 * an answer takes as long on the clock as the test says.
 */
import t from 'tap';
import { movingClock, newBooks } from '../helpers/index.js';
import { contactOk } from '../ledger-http/support.js';
import { deliverDue, fanOut, type Lanes } from '../../src/engine/integration/webhook-sender.js';
import { loopbackPolicy, selfSigned, serveWebhooks, startReceiver } from './support.js';

const tls = selfSigned(t.testdir());

/** Lanes as acct serve's sender keeps them: attempts handed over and not waited for. */
function lanes(): Lanes & { readonly runs: Promise<void>[] } {
  const runs: Promise<void>[] = [];
  return { busy: new Set(), runs, run: (_endpointId, attempts) => void runs.push(attempts) };
}

t.test('a slow endpoint and two senders: each delivery attempted once, and every attempt counted', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00.000Z');
  const books = await newBooks(t, { clock });
  const api = await serveWebhooks(t, books);
  const receiver = await startReceiver(t, tls, { answer: 'hold' });
  const r = await api.request('POST', '/v1/webhooks', { body: { url: receiver.url('/hook'), events: ['contact.created'] } });
  t.equal(r.status, 201);
  for (let i = 1; i <= 20; i++) await contactOk(t, api, { name: `Contact ${i} Ltd` });
  const org = books.store.org(books.organisationId, 'live');
  t.equal(await fanOut(org, clock), 20, '20 events, a delivery each');
  // The default response timeout is 30 s: a claim holds for 60 s.
  const options = { clock, policy: loopbackPolicy, ca: tls.cert };
  const first = lanes();
  const second = lanes();

  // 10:00:00. The first sender claims all 20 (until 10:01:00) and sends 4 at a time; each answer takes 25 s.
  t.equal(await deliverDue(org, options, first), 20, 'the first sender claims the 20');
  await receiver.waitFor(4);
  // 10:00:25: the first 4 answered; the next 4 sent. 10:00:50: those answered; 9 to 12 sent.
  for (const sent of [8, 12]) {
    clock.advance(25_000);
    receiver.release();
    await receiver.waitFor(sent);
  }
  t.equal(receiver.held, 4, 'deliveries 9 to 12 are with the endpoint');

  // 10:01:10: the first sender's claim on 13 to 20, never attempted, has lapsed (at 10:01:00); that on 9 to 12
  // was renewed as each was sent (at 10:00:50, until 10:01:50). The second sender takes 13 to 20 only.
  clock.advance(20_000);
  t.equal(await deliverDue(org, options, second), 8, 'the second sender claims the 8 not yet attempted, not the 4 under way');
  await receiver.waitFor(16);
  t.equal(receiver.held, 8, 'the first sender waits on 9 to 12, the second on 13 to 16');

  // 10:01:15: all 8 answered. The first sender finds 13 to 20 claimed by the second and leaves them; the second sends 17 to 20.
  clock.advance(5_000);
  receiver.release();
  await Promise.all(first.runs);
  await receiver.waitFor(20);
  clock.advance(25_000);
  receiver.answer = 200;
  receiver.release();
  await Promise.all(second.runs);

  const hits = receiver.hits.map((h) => String(h.headers['x-service-delivery']));
  t.equal(hits.length, 20, '20 requests in all');
  t.equal(new Set(hits).size, 20, 'each delivery sent once');
  const rows = await org.db.selectFrom('webhook_deliveries').select(['id', 'status', 'attempts']).execute();
  t.equal(rows.length, 20);
  t.same(
    rows.filter((d) => d.status !== 'succeeded' || d.attempts !== 1),
    [],
    'each succeeded at its one attempt',
  );
  t.equal(
    rows.reduce((sum, d) => sum + d.attempts, 0),
    hits.length,
    'the attempts recorded are the requests made',
  );
});

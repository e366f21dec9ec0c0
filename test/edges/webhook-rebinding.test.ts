/**
 * The webhook address rule at connection time: the delivery's own lookup
 * checks every address the host name resolves to, so a name that answers a
 * public address to the check and 127.0.0.1 to the connection (DNS
 * rebinding) reaches nothing, and the attempt is recorded as a failure that
 * says why.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { movingClock, newBooks, type Api } from '../helpers/index.js';
import { contactOk } from '../ledger-http/support.js';
import { sendWebhooks, type SenderOptions } from '../../src/engine/integration/webhook-sender.js';
import { deliveryLookup, systemResolve, type Resolve } from '../../src/engine/integration/webhook-url.js';
import { serveWebhooks } from '../webhooks/support.js';
import type { WebhookPolicy } from '../../src/engine/webhook-policy.js';

const start = '2026-11-21T10:00:00.000Z';
const strictHttp: WebhookPolicy = { allowHttp: true, allowPrivate: false };

interface Listener {
  readonly port: number;
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  requests: number;
}

/** A plain HTTP receiver on 127.0.0.1 that counts what reaches it. */
async function listener(t: Test): Promise<Listener> {
  const server = http.createServer((req, res) => {
    seen.requests += 1;
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  const seen = { port: 0, connections: 0, requests: 0 };
  server.on('connection', () => (seen.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  seen.port = (server.address() as AddressInfo).port;
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return seen;
}

/** A resolver that answers each call with the next list (the last one again once they run out), and counts the calls. */
function scripted(...answers: (readonly string[])[]): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (host: string): Promise<readonly string[]> => {
    calls.push(host);
    return Promise.resolve(answers[Math.min(calls.length - 1, answers.length - 1)] ?? []);
  };
  return Object.assign(resolve, { calls });
}

async function world(t: Test) {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  // The server that registers the endpoint lets any address through; the sender below is strict.
  const api: Api = await serveWebhooks(t, books, { allowHttp: true, allowPrivate: true });
  const receiver = await listener(t);
  const r = await api.request('POST', '/v1/webhooks', { body: { url: `http://rebind.example:${receiver.port}/hook`, events: ['contact.created'] } });
  t.equal(r.status, 201);
  const endpointId = r.body.data.id as string;
  await contactOk(t, api, { name: 'Rebinding Ltd' });
  const org = books.store.org(books.organisationId, 'live');
  const deliveries = async () => (await api.request('GET', `/v1/webhook-endpoints/${endpointId}/deliveries`)).body.data;
  return { clock, receiver, org, deliveries };
}

t.test('a name that rebinds to 127.0.0.1 between the check and the connection: no connection, a failed attempt that says why', async (t) => {
  const w = await world(t);
  // The check before the request sees a public address; the connection's lookup sees loopback.
  const rebinding = scripted(['93.184.215.14'], ['127.0.0.1']);
  const options: SenderOptions = { clock: w.clock, policy: strictHttp, resolve: rebinding };
  t.equal(await sendWebhooks(w.org, options), 1, 'one delivery attempted');
  t.same(rebinding.calls, ['rebind.example', 'rebind.example'], 'resolved for the check, then again by the connection');
  t.equal(w.receiver.connections, 0, 'no connection reached 127.0.0.1');
  t.equal(w.receiver.requests, 0, 'no request was made');
  const [d] = await w.deliveries();
  // The first retry is 1 minute after a failed first attempt: 10:00:00 + 1 min = 10:01:00.
  t.match(d, { status: 'pending', attempts: 1, responseStatus: null, nextAttemptAt: '2026-11-21T10:01:00.000Z' });
  t.match(d.error, /rebind\.example resolves to 127\.0\.0\.1, which is not a global unicast address/, `the error says why: ${d.error}`);
});

t.test('the same receiver is reached when the policy allows private addresses (the refusal above is the rule, not a broken receiver)', async (t) => {
  const w = await world(t);
  const loopback = scripted(['127.0.0.1']);
  t.equal(await sendWebhooks(w.org, { clock: w.clock, policy: { allowHttp: true, allowPrivate: true }, resolve: loopback }), 1);
  t.equal(w.receiver.requests, 1, 'the request arrived');
  t.match((await w.deliveries())[0], { status: 'succeeded', attempts: 1, responseStatus: 200 });
});

t.test('one non-global answer among several refuses the delivery, whichever comes first', async (t) => {
  const w = await world(t);
  // The check sees only public addresses; the connection's answer mixes in a documentation address (198.51.100.0/24).
  const mixed = scripted(['93.184.215.14'], ['93.184.215.14', '198.51.100.7']);
  t.equal(await sendWebhooks(w.org, { clock: w.clock, policy: strictHttp, resolve: mixed }), 1);
  t.equal(w.receiver.connections, 0, 'nothing connected');
  const [d] = await w.deliveries();
  t.match(d, { status: 'pending', attempts: 1, responseStatus: null });
  t.match(d.error, /198\.51\.100\.7, which is not a global unicast address/);
});

t.test('the connection lookup over the system resolver refuses localhost', async (t) => {
  const lookup = deliveryLookup({ allowHttp: false, allowPrivate: false }, systemResolve);
  for (const all of [true, false]) {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('localhost', { all }, (e) => resolve(e)));
    t.match(error?.message, /localhost resolves to (127\.0\.0\.1|::1), which is not a global unicast address/, `all: ${all}`);
  }
  const allowed = deliveryLookup({ allowHttp: false, allowPrivate: true }, systemResolve);
  const answer = await new Promise<unknown>((resolve) => allowed('localhost', { all: true }, (e, address) => resolve(e ?? address)));
  t.ok(Array.isArray(answer) && answer.length > 0, 'with private addresses allowed, localhost resolves');
});

// test-order: first (about a minute of real time, most of it waiting for the retry schedule)
/**
 * Deliveries outlive the server: a delivery that failed while the receiver
 * was down is retried by the next `acct serve` after a SIGKILL, on the
 * schedule (1 minute after the first attempt), correctly signed, once.
 * Real processes and real time: this test takes a little over a minute.
 */
import path from 'node:path';
import t from 'tap';
import { delay, init } from '../cli/support.js';
import { cliVerify, freePort, opensslSignature, selfSigned, startReceiver, uuidShape, type Hit } from './support.js';
import { generousMs, request, startAcct } from '../helpers/index.js';

/** Poll the endpoint's delivery log until `done` holds for the newest delivery; that delivery. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliveries are checked field by field
async function newestDelivery(url: string, key: string, endpointId: string, done: (d: any) => boolean, ms: number): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await request(url, 'GET', `/v1/webhook-endpoints/${endpointId}/deliveries`, { key });
    const d = r.status === 200 ? r.body.data[0] : undefined;
    if (d !== undefined && done(d)) return d;
    if (Date.now() > deadline) throw new Error(`no such delivery within ${ms} ms: ${JSON.stringify(r.body)}`);
    await delay(100);
  }
}

t.test('a pending delivery survives SIGKILL and is delivered by the next server on schedule', async (t) => {
  t.setTimeout(150_000);
  const dir = t.testdir();
  const { apiKey } = await init(t, dir);
  const tls = selfSigned(path.join(dir, 'tls'));
  const port = await freePort();
  const serveArgs = ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0', '--allow-private-webhooks', '--webhook-ca', tls.certPath];

  const first = await startAcct(t, serveArgs);
  const registered = await request(first.url, 'POST', '/v1/webhooks', {
    key: apiKey,
    body: { url: `https://127.0.0.1:${port}/hook`, events: ['contact.created'] },
  });
  t.equal(registered.status, 201, `endpoint registered: ${JSON.stringify(registered.body?.error ?? '')}`);
  const { id: endpointId, secret } = registered.body.data as { id: string; secret: string };
  const contact = await request(first.url, 'POST', '/v1/contacts', { key: apiKey, body: { contactType: 'customer', name: 'Survivor Ltd' } });
  t.equal(contact.status, 201);

  const failed = await newestDelivery(first.url, apiKey, endpointId, (d) => d.attempts === 1, generousMs);
  t.match(
    failed,
    { eventType: 'contact.created', status: 'pending', attempts: 1, responseStatus: null, completedAt: null },
    'the first attempt failed: nothing listens',
  );
  t.match(failed.id, uuidShape);
  t.equal(Date.parse(failed.nextAttemptAt) - Date.parse(failed.lastAttemptAt), 60_000, 'the retry is due 1 minute after the attempt');

  first.child.kill('SIGKILL');
  t.same(await first.exited, { code: null, signal: 'SIGKILL' }, 'the first server is killed');

  const receiver = await startReceiver(t, tls, { port });
  const second = await startAcct(t, serveArgs);
  await receiver.waitFor(1, 90_000);
  const hit = receiver.hits[0] as Hit;
  const due = Date.parse(failed.nextAttemptAt);
  t.ok(hit.at >= due - 1000, `not before it was due (${hit.at - due} ms after)`);
  // A generous bound (a few ms after, unloaded): it still fails for a retry left to the next step of the schedule (5 min).
  t.ok(hit.at <= due + generousMs, `and soon after (${hit.at - due} ms after)`);
  t.equal(hit.method, 'POST');
  t.equal(hit.path, '/hook');
  t.equal(hit.headers['x-service-event'], 'contact.created');
  t.equal(hit.headers['x-service-delivery'], failed.id, 'the same delivery id as the failed attempt');
  const body = JSON.parse(hit.raw.toString('utf8'));
  t.equal(body.event, 'contact.created');
  t.equal(body.data.id, contact.body.data.id);
  t.equal(body.data.name, 'Survivor Ltd');
  const ts = String(hit.headers['x-service-timestamp']);
  // This attempt's time, not the first attempt's a minute before: 20 s of slack for a loaded machine, between signing and arriving.
  t.ok(Math.abs(Number(ts) - hit.at / 1000) <= generousMs / 1000, `signed at the time of this attempt (${Number(ts) - hit.at / 1000} s)`);
  t.equal(await opensslSignature(secret, ts, hit.raw), hit.headers['x-service-signature'], 'the signature is valid (openssl)');
  const verified = await cliVerify(secret, hit);
  t.equal(verified.status, 0, `acct webhooks verify with the default 300 s tolerance: ${verified.stdout}${verified.stderr}`);

  const done = await newestDelivery(second.url, apiKey, endpointId, (d) => d.status !== 'pending', generousMs);
  t.match(done, { id: failed.id, status: 'succeeded', attempts: 2, responseStatus: 200, nextAttemptAt: null, error: null });
  t.type(done.latencyMs, 'number');
  await delay(1500);
  t.equal(receiver.hits.length, 1, 'delivered once');

  second.child.kill('SIGTERM');
  t.same(await second.exited, { code: 0, signal: null }, 'the second server exits 0 on SIGTERM');
  t.equal(second.stderr(), '', 'nothing on standard error');
});

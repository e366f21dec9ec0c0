/**
 * acct serve end to end (the real bin/acct): --stripe-key, --stripe-base-url,
 * --stripe-webhook-secret and --billing-return-url configure billing; a
 * checkout reaches the stand-in, and the provider's signed events, delivered
 * to the running server, drive the subscription.
 */
import t from 'tap';
import { apiAt, assertDistFresh, newBooks, startAcct } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { signed, standInKey, startStandIn, webhookSecret } from './stripe-stand-in.js';

t.test('acct serve with the billing flags: checkout, then the signed events make the subscription trialing', async (t) => {
  assertDistFresh();
  const books = await newBooks(t);
  const standIn = await startStandIn();
  t.teardown(() => standIn.stop());
  const running = await startAcct(t, [
    '--data',
    books.dataDir,
    'serve',
    '--port',
    '0',
    '--stripe-key',
    standInKey,
    '--stripe-base-url',
    standIn.url,
    '--stripe-webhook-secret',
    webhookSecret,
    '--billing-return-url',
    'https://app.example.com/billing',
  ]);
  const api = apiAt(running.url, books.apiKey);
  const r = await api.request('POST', '/v1/billing/checkout', { body: { plan: 'limited_company' } });
  t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
  t.match(standIn.to('POST', '/v1/checkout/sessions')[0]?.params, {
    success_url: 'https://app.example.com/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}',
  });

  const now = Math.floor(Date.now() / 1000);
  for (const event of standIn.completeCheckout(r.body.data.sessionId as string, now)) {
    const { payload, signature } = signed(event, now);
    const hook = await api.request('POST', '/v1/stripe-webhook/stripe', {
      key: null,
      raw: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    });
    t.equal(hook.status, 200, `${event.type}: ${JSON.stringify(hook.body?.error ?? '')}`);
    const forged = await api.request('POST', '/v1/stripe-webhook/stripe', {
      key: null,
      raw: payload.replace('limited_company', 'sole_trader'),
      headers: { 'stripe-signature': signature },
    });
    expectError(t, forged, 400, 'validation_error', { field: 'stripe-signature' });
  }
  const status = await api.request('GET', '/v1/billing/status');
  t.match(status.body.data, { plan: 'limited_company', hasSubscription: true, subscription: { status: 'trialing' } });
});

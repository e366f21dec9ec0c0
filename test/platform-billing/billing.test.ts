/**
 * Subscription billing over HTTP against the provider's stand-in: the
 * plans, the status through the trial and after subscribing, checkout
 * carrying the trial's remaining days over, the portal, and the refusals
 * (not configured, a test key, bad input, the provider refusing or down),
 * each writing nothing.
 */
import t from 'tap';
import { expectError } from '../http/support.js';
import { billedBooks, checkout, day, nothing, status, subscribe, trialEnd, written } from './support.js';

t.test('GET /billing/plans: both plans with the business type each is made for and its monthly price in pence', async (t) => {
  const b = await billedBooks(t);
  const r = await b.api.request('GET', '/v1/billing/plans');
  t.equal(r.status, 200);
  // £12.00 a month = 1200 pence; £24.00 a month = 2400 pence; VAT included.
  t.same(r.body.data, [
    { id: 'sole_trader', name: 'Sole Trader', businessType: 'sole_trader', monthlyPrice: 1200, currency: 'GBP', interval: 'month' },
    { id: 'limited_company', name: 'Limited Company', businessType: 'limited_company', monthlyPrice: 2400, currency: 'GBP', interval: 'month' },
  ]);
});

t.test('status on the first day of a 90-day trial', async (t) => {
  const b = await billedBooks(t);
  // 5 January to 5 April 2026: 26 days of January left + 28 + 31 + 5 = 90.
  t.same(await status(t, b), {
    plan: 'trial',
    planName: 'Free trial',
    isTrialActive: true,
    trialDaysRemaining: 90,
    trialEndsAt: trialEnd,
    hasStripeCustomer: false,
    hasSubscription: false,
    subscription: null,
  });
});

t.test(
  'checkout mid-trial: the customer made once, the 57 days left carried over as the subscription trial, the session kept; a second expires the first',
  async (t) => {
    const b = await billedBooks(t);
    b.clock.advance(33 * day); // 7 February 2026: 7 Feb to 7 Mar is 28 days, to 5 Apr 29 more: 57 = 90 - 33.
    t.equal((await status(t, b))['trialDaysRemaining'], 57);

    const r = await checkout(b, 'limited_company');
    t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
    t.match(r.body.data, { sessionId: /^cs_test_[0-9a-f]{32}$/, trialDays: 57 });
    t.equal(r.body.data.checkoutUrl, `https://checkout.stripe.com/c/pay/${r.body.data.sessionId as string}`);

    const [customer] = b.standIn.to('POST', '/v1/customers');
    t.same(
      customer?.params,
      { name: 'Acme Widgets Ltd', metadata: { organisationId: b.books.organisationId } },
      'the customer: the organisation name, its id in the metadata',
    );
    t.equal(customer?.version, '2026-10-28.endive', "the SDK's API version");
    const [session] = b.standIn.to('POST', '/v1/checkout/sessions');
    t.ok(session?.form.split('&').includes('subscription_data[trial_period_days]=57'), 'the form carries subscription_data[trial_period_days]=57');
    t.match(session?.params, {
      mode: 'subscription',
      customer: [...b.standIn.customers.keys()][0],
      client_reference_id: b.books.organisationId,
      line_items: { 0: { quantity: '1', price_data: { currency: 'gbp', unit_amount: '2400', tax_behavior: 'inclusive', recurring: { interval: 'month' } } } },
      subscription_data: { trial_period_days: '57', metadata: { organisationId: b.books.organisationId, plan: 'limited_company' } },
      metadata: { organisationId: b.books.organisationId, plan: 'limited_company' },
      success_url: 'https://app.example.com/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://app.example.com/billing?checkout=cancelled',
    });
    t.match(await status(t, b), {
      plan: 'trial',
      isTrialActive: true,
      trialDaysRemaining: 57,
      hasStripeCustomer: true,
      hasSubscription: false,
      subscription: null,
    });

    // A second checkout while the first is still open at the provider (the customer backed out of the provider's page and came back): the
    // first is expired there before the second is made, so that only one can ever be paid (completing both would start two subscriptions,
    // both charged). The second, with return addresses of its own, uses the same customer.
    const first = r.body.data.sessionId as string;
    const calls = b.standIn.requests.length;
    const other = await b.api.request('POST', '/v1/billing/checkout', {
      body: { plan: 'limited_company', successUrl: 'https://example.com/thanks', cancelUrl: 'https://example.com/plans' },
    });
    t.equal(other.status, 200, JSON.stringify(other.body?.error ?? ''));
    t.not(other.body.data.sessionId, first);
    t.same(
      b.standIn.requests.slice(calls).map((q) => `${q.method} ${q.path}`),
      ['GET /v1/checkout/sessions', `POST /v1/checkout/sessions/${first}/expire`, 'POST /v1/checkout/sessions'],
      'the open session expired, then the new one made',
    );
    t.equal(b.standIn.sessions.get(first)?.['status'], 'expired');
    t.equal(b.standIn.sessions.get(other.body.data.sessionId as string)?.['status'], 'open');
    t.equal(b.standIn.to('POST', '/v1/customers').length, 1, 'no second customer');
    t.match(b.standIn.to('POST', '/v1/checkout/sessions')[1]?.params, {
      line_items: { 0: { price_data: { unit_amount: '2400' } } },
      success_url: 'https://example.com/thanks',
      cancel_url: 'https://example.com/plans',
    });
    t.equal((await b.books.store.platform.db.selectFrom('billing_sessions').select('id').execute()).length, 2);
  },
);

t.test('a second checkout while the customer completes the first: 409, the first stands and no second session is made', async (t) => {
  const b = await billedBooks(t);
  const r = await checkout(b, 'limited_company');
  t.equal(r.status, 200);
  const first = r.body.data.sessionId as string;
  b.standIn.completesBeforeExpire(first);
  const second = await checkout(b, 'limited_company');
  expectError(t, second, 409, 'conflict', { message: /completed/ });
  t.equal(b.standIn.sessions.get(first)?.['status'], 'complete');
  t.equal(b.standIn.to('POST', '/v1/checkout/sessions').length, 1, 'no second session at the provider');
  t.equal((await b.books.store.platform.db.selectFrom('billing_sessions').select('id').execute()).length, 1, 'no second session kept');
});

t.test('after the checkout completes: on the plan, the trial over for the service and trialing at the provider; a second checkout is 409', async (t) => {
  const b = await billedBooks(t);
  b.clock.advance(33 * day);
  await subscribe(t, b, 'limited_company');
  // The provider's trial of 57 days from 7 February 10:00 ends 5 April 10:00, where the service's trial would have.
  t.same(await status(t, b), {
    plan: 'limited_company',
    planName: 'Limited Company',
    isTrialActive: false,
    trialDaysRemaining: 0,
    trialEndsAt: null,
    hasStripeCustomer: true,
    hasSubscription: true,
    subscription: { status: 'trialing', currentPeriodEnd: trialEnd, cancelAtPeriodEnd: false },
  });
  const org = await b.api.request('GET', '/v1/organisation');
  t.equal(org.body.data.subscription.status, 'trialing', "GET /organisation's subscription follows the provider's");

  const calls = b.standIn.requests.length;
  expectError(t, await checkout(b, 'limited_company'), 409, 'conflict', { message: /portal/ });
  t.equal(b.standIn.requests.length, calls, 'the provider was not asked');
});

t.test('in summer time, made between 23:00 and 24:00 UTC: the trial days count London dates at both ends, and all 90 carry over', async (t) => {
  // Made 2026-06-10 23:30 UTC = 11 June 00:30 BST; the 90 days end 2026-09-08 23:30 UTC = 9 September 00:30 BST.
  // London dates 11 June to 9 September: 19 days of June left + 31 + 31 + 9 = 90.
  const b = await billedBooks(t, { at: '2026-06-10T23:30:00Z' });
  t.match(await status(t, b), { isTrialActive: true, trialDaysRemaining: 90, trialEndsAt: '2026-09-08T23:30:00.000Z' });
  b.clock.advance(5 * 60_000);
  const r = await checkout(b, 'limited_company');
  t.equal(r.body.data.trialDays, 90);
  t.ok(b.standIn.to('POST', '/v1/checkout/sessions')[0]?.form.split('&').includes('subscription_data[trial_period_days]=90'), 'trial_period_days=90 sent');
});

t.test("on the trial's last day, before it ends, one day remains and checkout carries it over", async (t) => {
  const b = await billedBooks(t);
  // 2026-04-05 09:00 UTC = 10:00 BST on 5 April, the trial's last London day; it ends at 10:00 UTC (11:00 BST): one hour left.
  b.clock.advance(90 * day - 3_600_000);
  t.match(await status(t, b), { isTrialActive: true, trialDaysRemaining: 1, trialEndsAt: trialEnd });
  const r = await checkout(b, 'limited_company');
  t.equal(r.body.data.trialDays, 1, 'the card is not charged before the trial ends');
  t.ok(b.standIn.to('POST', '/v1/checkout/sessions')[0]?.form.split('&').includes('subscription_data[trial_period_days]=1'));
  b.clock.advance(3_600_000);
  t.match(await status(t, b), { isTrialActive: false, trialDaysRemaining: 0 }, 'ended at 10:00 UTC');
});

t.test('checkout after the trial has ended carries no trial over', async (t) => {
  const b = await billedBooks(t);
  b.clock.advance(91 * day);
  t.match(await status(t, b), { isTrialActive: false, trialDaysRemaining: 0, trialEndsAt: trialEnd });
  const r = await checkout(b, 'limited_company');
  t.equal(r.body.data.trialDays, 0);
  const [session] = b.standIn.to('POST', '/v1/checkout/sessions');
  t.notOk(session?.form.includes('trial_period_days'), 'no trial_period_days sent');
});

t.test('without a provider key: 422 billing_not_configured from checkout, portal and the receiver; status still reads; nothing written', async (t) => {
  const b = await billedBooks(t, { billing: null });
  expectError(t, await checkout(b, 'limited_company'), 422, 'billing_not_configured', { message: /--stripe-key/ });
  expectError(t, await b.api.request('POST', '/v1/billing/portal', { body: {} }), 422, 'billing_not_configured');
  const hook = await b.api.request('POST', '/v1/stripe-webhook/stripe', { key: null, raw: '{}', headers: { 'stripe-signature': 't=1,v1=00' } });
  expectError(t, hook, 422, 'billing_not_configured', { message: /--stripe-webhook-secret/ });
  t.match(await status(t, b), { plan: 'trial', isTrialActive: true });
  t.same(await written(b), nothing, 'the organisation keeps its plan; no customer, no session');
  t.same(b.standIn.requests, [], 'the provider was never called');
});

t.test('a test key may read the status but not subscribe (403 forbidden), and nothing is written', async (t) => {
  const b = await billedBooks(t);
  t.match(await status(t, b, b.books.testApiKey), { plan: 'trial' });
  expectError(t, await checkout(b, 'limited_company', b.books.testApiKey), 403, 'forbidden', { message: /test key/ });
  expectError(t, await b.api.request('POST', '/v1/billing/portal', { key: b.books.testApiKey, body: {} }), 403, 'forbidden');
  t.same(await written(b), nothing);
  t.same(b.standIn.requests, []);
});

t.test('bad input is a 400 naming the field, before the provider is asked', async (t) => {
  const b = await billedBooks(t);
  const bad: [unknown, string][] = [
    [{}, 'plan'],
    [{ plan: 'trial' }, 'plan'],
    [{ plan: 'sole-trader' }, 'plan'],
    [{ plan: 'limited_company', successUrl: 'ftp://example.com/' }, 'successUrl'],
    [{ plan: 'limited_company', cancelUrl: 'not a url' }, 'cancelUrl'],
    [{ plan: 'limited_company', coupon: 'FREE' }, 'coupon'],
  ];
  for (const [body, field] of bad) expectError(t, await b.api.request('POST', '/v1/billing/checkout', { body }), 400, 'validation_error', { field });
  expectError(t, await b.api.request('POST', '/v1/billing/portal', { body: { returnUrl: 'javascript:alert(1)' } }), 400, 'validation_error', {
    field: 'returnUrl',
  });
  t.same(await written(b), nothing);
  t.same(b.standIn.requests, []);
});

t.test('no return address configured nor given: 400 on successUrl, and the customer made is kept for the next try', async (t) => {
  const b = await billedBooks(t, { billing: { returnUrl: null } });
  expectError(t, await checkout(b, 'limited_company'), 400, 'validation_error', { field: 'successUrl', message: /--billing-return-url/ });
  t.same(b.standIn.requests, [], 'refused before the provider was asked');
  const r = await b.api.request('POST', '/v1/billing/checkout', {
    body: { plan: 'limited_company', successUrl: 'https://a.example/ok', cancelUrl: 'https://a.example/no' },
  });
  t.equal(r.status, 200);
});

t.test('the portal: 400 without a provider customer; then a portal session back to the return address', async (t) => {
  const b = await billedBooks(t);
  expectError(t, await b.api.request('POST', '/v1/billing/portal', { body: {} }), 400, 'invalid_request', { message: /checkout/ });
  t.same(b.standIn.requests, []);
  await checkout(b, 'limited_company');
  const r = await b.api.request('POST', '/v1/billing/portal', { body: {} });
  t.equal(r.status, 200);
  t.match(r.body.data.portalUrl, /^https:\/\/billing\.stripe\.com\/p\/session\/test_bps_[0-9a-f]{24}$/);
  t.same(b.standIn.to('POST', '/v1/billing_portal/sessions')[0]?.params, {
    customer: [...b.standIn.customers.keys()][0],
    return_url: 'https://app.example.com/billing?portal=done',
  });
  const own = await b.api.request('POST', '/v1/billing/portal', { body: { returnUrl: 'https://example.com/account' } });
  t.equal(own.status, 200);
  t.not(own.body.data.portalUrl, r.body.data.portalUrl);
  t.equal(b.standIn.to('POST', '/v1/billing_portal/sessions')[1]?.params['return_url'], 'https://example.com/account');
});

t.test('the provider refusing is 422 billing_provider_rejected, a refused key 422, the provider down 503; no session kept', async (t) => {
  const logged: unknown[] = [];
  const b = await billedBooks(t);
  const down = await billedBooks(t, { billing: { secretKey: 'sk_test_wrong' } });
  b.standIn.failNext(400, 'invalid_request_error', 'Invalid currency: gbx');
  expectError(t, await checkout(b, 'limited_company'), 422, 'billing_provider_rejected', { message: /Invalid currency: gbx/ });
  expectError(t, await checkout(down, 'limited_company'), 422, 'billing_not_configured', { message: /refuses the configured key/ });
  t.same(await written(down), nothing);

  const { serveBooks } = await import('../helpers/index.js');
  const api = await serveBooks(t, b.books, { billing: { ...b.settings, baseUrl: 'http://127.0.0.1:9' }, onLogError: (e) => logged.push(e) });
  const r = await api.request('POST', '/v1/billing/checkout', { body: { plan: 'limited_company' } });
  expectError(t, r, 503, 'billing_provider_unavailable', { message: /did not answer at http:\/\/127\.0\.0\.1:9/ });
  t.equal(logged.length, 1, 'the 503 is reported');
  t.equal((await written(b)).sessions, 0, 'no session kept');
});

t.test('a session token (all scopes) reads the status and checks out', async (t) => {
  const b = await billedBooks(t);
  const reg = await b.api.request('POST', '/v1/registration/register', {
    key: null,
    body: { email: 'owner@example.com', password: 'a long password', fullName: 'Owner', organisationName: 'Owner Ltd', plan: 'sole-trader' },
  });
  t.equal(reg.status, 201);
  const token = reg.body.data.token as string;
  // The second organisation of the data directory: still one of the first 50, a 90-day trial from 5 January.
  t.match(await status(t, b, token), { plan: 'trial', trialDaysRemaining: 90, trialEndsAt: trialEnd });
  const r = await checkout(b, 'sole_trader', token);
  t.equal(r.status, 200);
  t.same(b.standIn.to('POST', '/v1/customers')[0]?.params, {
    name: 'Owner Ltd',
    email: 'owner@example.com',
    metadata: { organisationId: reg.body.data.organisation.id },
  });
});

/**
 * POST /v1/stripe-webhook/stripe over HTTP: the signature checked over the
 * raw body (valid, tampered, another secret, missing, stale), each event
 * id applied once however often it is delivered, the subscription states
 * it drives (trialing, active, past_due, unpaid, canceled), events
 * delivered out of order, and events that concern no organisation.
 */
import t from 'tap';
import { expectError } from '../http/support.js';
import type Stripe from 'stripe';
import { eventOf } from './stripe-stand-in.js';
import { billedBooks, deliver, deliverAll, nowSeconds, status, subscribe, type Billed } from './support.js';

async function storedEvents(b: Billed) {
  return b.books.store.platform.db.selectFrom('provider_events').selectAll().orderBy('received_at').execute();
}

/** The subscription as the provider would send it in an event, changed as given. */
function subscriptionEvent(b: Billed, id: string, type: string, change: Record<string, unknown>, created: number) {
  const sub = structuredClone(b.standIn.subscriptions.get(id)!);
  return eventOf(type, { ...sub, ...change }, created);
}

t.test('a valid signature: stored, applied and marked processed, with the organisation it concerned', async (t) => {
  const b = await billedBooks(t);
  await subscribe(t, b);
  const stored = await storedEvents(b);
  t.same(
    stored.map((e) => [e.type, e.status, e.organisation_id, e.error]),
    [
      ['checkout.session.completed', 'processed', b.books.organisationId, null],
      ['customer.subscription.created', 'processed', b.books.organisationId, null],
    ],
  );
  t.match(stored[0], { id: /^evt_/, received_at: '2026-01-05T10:00:00.000Z', processed_at: '2026-01-05T10:00:00.000Z' });
});

t.test('a tampered body, another secret or no signature is 400 and nothing is stored or changed', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b);
  const before = await status(t, b);
  const count = (await storedEvents(b)).length;
  const event = subscriptionEvent(b, subscriptionId, 'customer.subscription.updated', { status: 'canceled' }, nowSeconds(b.clock) + 1);

  const tampered = await deliver(b, event, { tamper: (p) => p.replace('"status": "canceled"', '"status": "active"') });
  expectError(t, tampered, 400, 'validation_error', {
    field: 'stripe-signature',
    message: /^Webhook Error: No signatures found matching the expected signature/,
  });
  const otherSecret = await deliver(b, event, { secret: 'whsec_someoneelse' });
  expectError(t, otherSecret, 400, 'validation_error', { field: 'stripe-signature', message: /^Webhook Error: / });
  const { payload } = { payload: JSON.stringify(event) };
  const unsigned = await b.api.request('POST', '/v1/stripe-webhook/stripe', { key: null, raw: payload, headers: { 'content-type': 'application/json' } });
  expectError(t, unsigned, 400, 'validation_error', { field: 'stripe-signature', message: /^Missing signature/ });
  const garbage = await b.api.request('POST', '/v1/stripe-webhook/stripe', { key: null, raw: payload, headers: { 'stripe-signature': 'nonsense' } });
  expectError(t, garbage, 400, 'validation_error', { field: 'stripe-signature' });

  t.equal((await storedEvents(b)).length, count, 'no event stored');
  t.same(await status(t, b), before, 'the subscription is as it was');
});

t.test('the signature timestamp: 300 s old is accepted, 301 s is refused as stale', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b);
  const now = nowSeconds(b.clock);
  const late = subscriptionEvent(b, subscriptionId, 'customer.subscription.updated', { cancel_at_period_end: true }, now);
  const stale = await deliver(b, late, { timestamp: now - 301 });
  expectError(t, stale, 400, 'validation_error', { field: 'stripe-signature', message: /Timestamp outside the tolerance zone/ });
  t.match(await status(t, b), { subscription: { cancelAtPeriodEnd: false } }, 'not applied');
  const edge = await deliver(b, late, { timestamp: now - 300 });
  t.equal(edge.status, 200);
  t.match(await status(t, b), { subscription: { cancelAtPeriodEnd: true } }, 'applied');
});

t.test('a replayed event id is received (200) and not applied again', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b);
  const at = nowSeconds(b.clock);
  const invoice = b.standIn.addInvoice(subscriptionId, 'open', 1200);
  const failed = eventOf('invoice.payment_failed', invoice, at);
  const paid = eventOf('invoice.paid', { ...invoice, status: 'paid', amount_paid: 1200 }, at);

  // A trialing subscription whose payment fails is past_due; paid, it is active.
  await deliverAll(t, b, [failed]);
  t.match(await status(t, b), { subscription: { status: 'past_due' } });
  b.clock.advance(60_000);
  await deliverAll(t, b, [paid]);
  t.match(await status(t, b), { subscription: { status: 'active' } });

  // The failure again, same id and same creation time: were it applied, active would fall back to past_due.
  b.clock.advance(60_000);
  await deliverAll(t, b, [failed, failed]);
  t.match(await status(t, b), { subscription: { status: 'active' } }, 'still active');
  const rows = (await storedEvents(b)).filter((e) => e.id === failed.id);
  t.equal(rows.length, 1, 'stored once');
  t.match(rows[0], { status: 'processed', received_at: '2026-01-05T10:00:00.000Z', processed_at: '2026-01-05T10:00:00.000Z' }, 'as first received');
});

t.test('an event left pending by a process that stopped is applied when the provider delivers it again; one in hand is not applied twice', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b);
  const invoice = b.standIn.addInvoice(subscriptionId, 'open', 1200);
  const failed = eventOf('invoice.payment_failed', invoice, nowSeconds(b.clock));
  // What a process killed between storing the event and applying it leaves: the event pending, the subscription unchanged.
  const pending = {
    id: failed.id,
    organisation_id: null,
    type: failed.type,
    status: 'pending' as const,
    received_at: b.clock.now().toISOString(),
    processed_at: null,
    error: null,
  };
  await b.books.store.platform.write((trx) => trx.insertInto('provider_events').values(pending).execute());

  // Redelivered at once (another process still applying it, as far as this one can tell): received, not applied twice.
  await deliverAll(t, b, [failed]);
  t.match(await status(t, b), { subscription: { status: 'trialing' } }, 'a claim in hand is left to its process');
  // Redelivered a minute later, as the provider does when it got no answer: the abandoned claim is applied.
  b.clock.advance(60_000);
  await deliverAll(t, b, [failed]);
  t.match(await status(t, b), { subscription: { status: 'past_due' } }, 'applied');
  t.match(
    (await storedEvents(b)).find((e) => e.id === failed.id),
    { status: 'processed' },
  );
});

t.test('subscription states: past_due, unpaid, active again, cancel at period end, canceled; then checkout is open again', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b, 'limited_company');
  let at = nowSeconds(b.clock);
  const update = (change: Record<string, unknown>, type = 'customer.subscription.updated') => subscriptionEvent(b, subscriptionId, type, change, ++at);
  const sub = async () => (await status(t, b))['subscription'];

  await deliverAll(t, b, [update({ status: 'past_due' })]);
  t.match(await sub(), { status: 'past_due' });
  await deliverAll(t, b, [update({ status: 'unpaid' })]);
  t.match(await sub(), { status: 'unpaid' });
  await deliverAll(t, b, [update({ status: 'paused' })]);
  t.match(await sub(), { status: 'unpaid' }, 'paused (a trial ended without a card) counts as unpaid');
  await deliverAll(t, b, [update({ status: 'incomplete' })]);
  t.match(await sub(), { status: 'unpaid' }, 'incomplete changes nothing');
  await deliverAll(t, b, [update({ status: 'active' })]);
  t.match(await sub(), { status: 'active' });
  await deliverAll(t, b, [update({ status: 'active', cancel_at_period_end: true })]);
  t.match(await sub(), { status: 'active', cancelAtPeriodEnd: true });
  await deliverAll(t, b, [update({ status: 'canceled' }, 'customer.subscription.deleted')]);
  t.match(await status(t, b), {
    plan: 'limited_company',
    hasSubscription: true,
    subscription: { status: 'canceled' },
    isTrialActive: true,
    trialDaysRemaining: 90,
  });
  const again = await b.api.request('POST', '/v1/billing/checkout', { body: { plan: 'limited_company' } });
  t.equal(again.status, 200, 'a canceled subscription does not block a new checkout');
});

t.test('events out of order: an older state delivered late changes nothing', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b);
  const at = nowSeconds(b.clock);
  const older = subscriptionEvent(b, subscriptionId, 'customer.subscription.updated', { status: 'past_due' }, at + 10);
  const newer = subscriptionEvent(b, subscriptionId, 'customer.subscription.updated', { status: 'active' }, at + 20);
  await deliverAll(t, b, [newer, older]);
  t.match(await status(t, b), { subscription: { status: 'active' } });
  t.same(
    (await storedEvents(b)).slice(-2).map((e) => e.status),
    ['processed', 'processed'],
    'both received and processed',
  );
});

t.test('an event of a type acct does not act on is stored processed; one for no organisation is stored failed, and still 200', async (t) => {
  const b = await billedBooks(t);
  const at = nowSeconds(b.clock);
  const other = eventOf('customer.created', { id: 'cus_nobody', object: 'customer' }, at);
  const stray = eventOf('customer.subscription.updated', { id: 'sub_x', object: 'subscription', customer: 'cus_nobody', status: 'active', metadata: {} }, at);
  await deliverAll(t, b, [other, stray, stray]);
  const rows = await storedEvents(b);
  t.same(
    rows.map((e) => [e.type, e.status, e.organisation_id]),
    [
      ['customer.created', 'processed', null],
      ['customer.subscription.updated', 'failed', null],
    ],
  );
  t.match(rows[1]?.error, /no organisation has the provider customer cus_nobody/);
  t.same(await status(t, b), { ...(await status(t, b)), plan: 'trial', subscription: null }, 'no organisation changed');
});

t.test('the receiver takes no API key and ignores one: only the signature counts', async (t) => {
  const b = await billedBooks(t);
  const event = eventOf('customer.created', { id: 'cus_1', object: 'customer' }, nowSeconds(b.clock));
  const r = await b.api.request('POST', '/v1/stripe-webhook/stripe', {
    key: 'sk_live_wrong',
    raw: JSON.stringify(event),
    headers: { 'stripe-signature': 't=1,v1=ab' },
  });
  expectError(t, r, 400, 'validation_error', { field: 'stripe-signature' });
  const ok = await deliver(b, event);
  t.equal(ok.status, 200);
  // /api/v1 answers too, as every route does.
  const again = await b.api.request('POST', '/api/v1/stripe-webhook/stripe', { key: null, raw: '{}', headers: { 'stripe-signature': 't=1,v1=ab' } });
  expectError(t, again, 400, 'validation_error');
});

t.test("events about another subscription of the customer leave the current one's state alone; a live one is adopted once none is current", async (t) => {
  // A sole trader, who checks out its own plan, sole_trader; the provider's events about the second subscription carry limited_company.
  const b = await billedBooks(t, { organisation: { name: 'Jo Bloggs Plumbing', businessType: 'sole_trader', vatScheme: 'not_registered' } });
  const { subscriptionId } = await subscribe(t, b, 'sole_trader');
  const current = await status(t, b);
  t.match(current, { plan: 'sole_trader', isTrialActive: false, trialDaysRemaining: 0, subscription: { status: 'trialing' } });
  let at = nowSeconds(b.clock);
  // A second subscription of the same customer (a checkout completed in another tab), on the other plan.
  const other: Record<string, unknown> = {
    ...structuredClone(b.standIn.subscriptions.get(subscriptionId)!),
    id: 'sub_second',
    metadata: { organisationId: b.books.organisationId, plan: 'limited_company' },
  };
  const session = {
    id: 'cs_test_second',
    object: 'checkout.session',
    customer: other['customer'],
    subscription: 'sub_second',
    payment_status: 'paid',
    metadata: other.metadata,
  };
  await deliverAll(t, b, [
    eventOf('checkout.session.completed', session, ++at),
    eventOf('customer.subscription.created', { ...other, status: 'active' }, ++at),
    eventOf('customer.subscription.updated', { ...other, status: 'past_due' }, ++at),
  ]);
  t.same(await status(t, b), current, 'another live subscription does not replace the current one');
  await deliverAll(t, b, [eventOf('customer.subscription.deleted', { ...other, status: 'canceled' }, ++at)]);
  t.same(await status(t, b), current, 'its deletion neither cancels the organisation nor brings its trial back');
  const row = await b.books.store.platform.db.selectFrom('organisations').selectAll().where('id', '=', b.books.organisationId).executeTakeFirstOrThrow();
  t.equal(row.stripe_subscription_id, subscriptionId, 'the current subscription is still the first');

  // The current one ends: the organisation is canceled, and a live subscription of the customer may then become the current one.
  await deliverAll(t, b, [subscriptionEvent(b, subscriptionId, 'customer.subscription.deleted', { status: 'canceled' }, ++at)]);
  t.match(await status(t, b), { plan: 'sole_trader', subscription: { status: 'canceled' } });
  const third = { ...other, id: 'sub_third' };
  // Created before the deletion was delivered, and delivered late: still adopted, as nothing live is current.
  await deliverAll(t, b, [eventOf('customer.subscription.updated', { ...third, status: 'active' }, at - 2)]);
  t.match(await status(t, b), { plan: 'limited_company', isTrialActive: false, subscription: { status: 'active' } });
  const adopted = await b.books.store.platform.db.selectFrom('organisations').selectAll().where('id', '=', b.books.organisationId).executeTakeFirstOrThrow();
  t.equal(adopted.stripe_subscription_id, 'sub_third');
});

t.test('a validly signed event without its id, type or creation time is 400 naming the field, and nothing is stored', async (t) => {
  const b = await billedBooks(t);
  const at = nowSeconds(b.clock);
  const bad: [Record<string, unknown>, string][] = [
    [{}, 'id'],
    [null as unknown as Record<string, unknown>, 'id'],
    [{ id: '', type: 'customer.created', created: at }, 'id'],
    [{ id: 'evt_notype', object: 'event', created: at, data: { object: {} } }, 'type'],
    [{ id: 'evt_numbertype', type: 7, created: at, data: { object: {} } }, 'type'],
    [{ id: 'evt_nocreated', type: 'customer.created', data: { object: {} } }, 'created'],
  ];
  for (const [event, field] of bad) {
    expectError(t, await deliver(b, event as unknown as Stripe.Event), 400, 'validation_error', { field, message: new RegExp(field) });
  }
  t.same(await storedEvents(b), [], 'nothing stored');
});

t.test('a signature timestamped in the future: 300 s ahead is accepted, 301 s is refused as a stale one is', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b);
  const now = nowSeconds(b.clock);
  const event = subscriptionEvent(b, subscriptionId, 'customer.subscription.updated', { cancel_at_period_end: true }, now);
  const ahead = await deliver(b, event, { timestamp: now + 301 });
  expectError(t, ahead, 400, 'validation_error', { field: 'stripe-signature', message: /Timestamp outside the tolerance zone/ });
  const day = await deliver(b, event, { timestamp: now + 86_400 });
  expectError(t, day, 400, 'validation_error', { field: 'stripe-signature', message: /Timestamp outside the tolerance zone/ });
  t.match(await status(t, b), { subscription: { cancelAtPeriodEnd: false } }, 'not applied');
  t.notOk(
    (await storedEvents(b)).some((e) => e.id === event.id),
    'not stored',
  );
  const edge = await deliver(b, event, { timestamp: now + 300 });
  t.equal(edge.status, 200);
  t.match(await status(t, b), { subscription: { cancelAtPeriodEnd: true } }, 'applied');
});

/**
 * The provider actions the administrator endpoints call (billing/admin-actions.ts),
 * against the stand-in: cancel a subscription (at once or at the period's
 * end, kept on the organisation at once), refund the latest paid invoice,
 * retry the open invoice; each refused plainly without what it needs, and
 * never from inside a write transaction.
 */
import t from 'tap';
import type { Test } from 'tap';
import type { Ctx } from '../../src/engine/operation.js';
import { AppError } from '../../src/engine/errors.js';
import { cancelSubscription, refundLatestPayment, retryOpenInvoice } from '../../src/engine/billing/admin-actions.js';
import { billedBooks, status, subscribe, trialEnd, type Billed } from './support.js';

const ctxOf = (b: Billed): Ctx => ({ ...b.books.ctx(), clock: b.clock, billing: b.settings });

async function refusal(t: Test, work: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  const e = await work.then(
    () => null,
    (err: unknown) => err,
  );
  t.ok(e instanceof AppError, 'an AppError');
  t.equal((e as AppError).code, code);
  t.match((e as AppError).message, message);
}

t.test('cancelSubscription: at the end of the period, then at once; each kept on the organisation at once', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b);
  const ctx = ctxOf(b);
  const atEnd = await cancelSubscription(ctx, b.books.organisationId, { atPeriodEnd: true });
  t.same(atEnd, { subscriptionId, status: 'trialing', cancelAtPeriodEnd: true, currentPeriodEnd: trialEnd });
  t.same(b.standIn.to('POST', `/v1/subscriptions/${subscriptionId}`)[0]?.params, { cancel_at_period_end: 'true' });
  t.match(await status(t, b), { subscription: { status: 'trialing', cancelAtPeriodEnd: true } });

  b.clock.advance(1000);
  const now = await cancelSubscription(ctx, b.books.organisationId);
  t.match(now, { subscriptionId, status: 'canceled' });
  t.equal(b.standIn.to('DELETE', `/v1/subscriptions/${subscriptionId}`).length, 1);
  t.match(await status(t, b), { subscription: { status: 'canceled' } });
});

t.test('refundLatestPayment: the payment of the newest paid invoice, in full', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b, 'limited_company');
  b.standIn.addInvoice(subscriptionId, 'paid', 2400);
  const latest = b.standIn.addInvoice(subscriptionId, 'paid', 2400);
  b.standIn.addInvoice(subscriptionId, 'open', 2400);
  const refund = await refundLatestPayment(ctxOf(b), b.books.organisationId, { reason: 'billed twice' });
  // The whole £24.00 of the latest invoice: 2400 pence.
  t.match(refund, { refundId: /^re_/, invoiceId: latest['id'], paymentId: /^pi_/, amount: 2400, currency: 'gbp', status: 'succeeded' });
  t.match(b.standIn.to('GET', '/v1/invoices')[0]?.params, { status: 'paid', limit: '1' });
  t.match(b.standIn.to('POST', '/v1/refunds')[0]?.params, {
    payment_intent: refund.paymentId,
    metadata: { organisationId: b.books.organisationId, invoiceId: latest['id'], reason: 'billed twice' },
  });
});

t.test('retryOpenInvoice: the open invoice paid again; a card declined again is 422 with the reason', async (t) => {
  const b = await billedBooks(t);
  const { subscriptionId } = await subscribe(t, b);
  await refusal(t, retryOpenInvoice(ctxOf(b), b.books.organisationId), 'not_found', /no open invoice/);
  const open = b.standIn.addInvoice(subscriptionId, 'open', 2400); // the limited company plan's £24.00 a month
  await refusal(t, retryOpenInvoice(ctxOf(b), b.books.organisationId), 'billing_provider_rejected', /insufficient funds/);
  t.equal(b.standIn.to('POST', `/v1/invoices/${String(open['id'])}/pay`).length, 1);
});

t.test('refused without what they need: no key, no customer, no subscription, no paid invoice; and inside a transaction', async (t) => {
  const b = await billedBooks(t);
  const id = b.books.organisationId;
  await refusal(t, cancelSubscription({ ...ctxOf(b), billing: { ...b.settings, secretKey: null } }, id), 'billing_not_configured', /--stripe-key/);
  await refusal(t, cancelSubscription(ctxOf(b), id), 'conflict', /no customer/);
  await refusal(t, refundLatestPayment(ctxOf(b), id), 'conflict', /no customer/);
  await b.api.request('POST', '/v1/billing/checkout', { body: { plan: 'limited_company' } });
  await refusal(t, cancelSubscription(ctxOf(b), id), 'conflict', /no subscription/);
  await refusal(t, refundLatestPayment(ctxOf(b), id), 'not_found', /no paid invoice/);
  await refusal(
    t,
    b.books.store.org(id, 'live').write(() => retryOpenInvoice(ctxOf(b), id)),
    'internal_error',
    /unexpected failure/,
  );
});

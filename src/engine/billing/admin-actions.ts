/**
 * What an administrator does to an organisation's subscription at the
 * provider: cancel it, refund its latest paid invoice, retry the payment of
 * its open invoice. Engine functions for the administrator endpoints to
 * call; each talks to the provider with no transaction open (call them
 * outside one, as an operation's external step does), and a cancellation
 * is kept on the organisation at once rather than waiting for the event.
 */
import { AppError } from '../errors.js';
import type { Ctx } from '../operation.js';
import type { SubscriptionStatus } from '../../store/tables.js';
import { callProvider, configuredBilling } from './provider.js';
import { billingRowOf, keepSubscription, paidPlanOf, statusOf } from './subscription.js';

export interface SubscriptionChange {
  readonly subscriptionId: string;
  readonly status: SubscriptionStatus | null;
  readonly cancelAtPeriodEnd: boolean;
  /** ISO 8601, or null. */
  readonly currentPeriodEnd: string | null;
}

/** The organisation's customer and subscription at the provider; 409 conflict when it has none. */
async function providerIdsOf(ctx: Ctx, organisationId: string): Promise<{ customer: string; subscription: string | null }> {
  const row = await billingRowOf(ctx.platform.db, organisationId);
  if (!row.stripe_customer_id) throw new AppError('conflict', `the organisation ${organisationId} has no customer at the payment provider`);
  return { customer: row.stripe_customer_id, subscription: row.stripe_subscription_id };
}

/**
 * Cancel the organisation's subscription: at once (the default), or at the
 * end of the period paid for (`atPeriodEnd`). 409 conflict without one.
 */
export async function cancelSubscription(ctx: Ctx, organisationId: string, options: { readonly atPeriodEnd?: boolean } = {}): Promise<SubscriptionChange> {
  const settings = configuredBilling(ctx);
  const { subscription } = await providerIdsOf(ctx, organisationId);
  if (!subscription) throw new AppError('conflict', `the organisation ${organisationId} has no subscription to cancel`);
  const sub = await callProvider(settings, 'cancel a subscription', (stripe) =>
    options.atPeriodEnd ? stripe.subscriptions.update(subscription, { cancel_at_period_end: true }) : stripe.subscriptions.cancel(subscription),
  );
  const periodEnd = sub.items?.data?.[0]?.current_period_end ?? null;
  const facts = {
    id: sub.id,
    status: sub.status,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    plan: paidPlanOf(sub.metadata?.['plan']),
  };
  await ctx.platform.write((trx) => keepSubscription(trx, organisationId, facts, Math.floor(ctx.clock.now().getTime() / 1000)));
  return {
    subscriptionId: sub.id,
    status: statusOf(sub.status),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    currentPeriodEnd: periodEnd === null ? null : new Date(periodEnd * 1000).toISOString(),
  };
}

export interface RefundMade {
  readonly refundId: string;
  readonly invoiceId: string;
  /** The payment refunded: a PaymentIntent (pi_…) or, for an old charge, the charge (ch_…). */
  readonly paymentId: string;
  /** Pence. */
  readonly amount: number;
  readonly currency: string;
  readonly status: string;
}

/**
 * Refund, in full, the payment of the organisation's latest paid invoice.
 * 404 not_found when it has none (or the invoice has no payment to refund).
 */
export async function refundLatestPayment(ctx: Ctx, organisationId: string, options: { readonly reason?: string } = {}): Promise<RefundMade> {
  const settings = configuredBilling(ctx);
  const { customer } = await providerIdsOf(ctx, organisationId);
  return callProvider(settings, 'refund the latest paid invoice', async (stripe) => {
    const [invoice] = (await stripe.invoices.list({ customer, status: 'paid', limit: 1 })).data;
    if (!invoice?.id) throw new AppError('not_found', `the organisation ${organisationId} has no paid invoice at the payment provider`);
    const [payment] = (await stripe.invoicePayments.list({ invoice: invoice.id, status: 'paid', limit: 1 })).data;
    const pi = payment?.payment.payment_intent;
    const charge = payment?.payment.charge;
    const target = pi ? { payment_intent: typeof pi === 'string' ? pi : pi.id } : charge ? { charge: typeof charge === 'string' ? charge : charge.id } : null;
    if (!target) throw new AppError('not_found', `the invoice ${invoice.id} has no payment to refund`);
    const refund = await stripe.refunds.create({
      ...target,
      metadata: { organisationId, invoiceId: invoice.id, ...(options.reason ? { reason: options.reason } : {}) },
    });
    return {
      refundId: refund.id,
      invoiceId: invoice.id,
      paymentId: target.payment_intent ?? target.charge ?? '',
      amount: refund.amount,
      currency: refund.currency,
      status: refund.status ?? 'pending',
    };
  });
}

export interface PaymentRetry {
  readonly invoiceId: string;
  /** The invoice's status after the attempt: paid when the payment went through. */
  readonly status: string;
  /** Pence. */
  readonly amountDue: number;
}

/**
 * Try again to collect the organisation's open invoice (the one a failed
 * payment left). 404 not_found when none is open; a payment refused again
 * is 422 billing_provider_rejected with the provider's reason.
 */
export async function retryOpenInvoice(ctx: Ctx, organisationId: string): Promise<PaymentRetry> {
  const settings = configuredBilling(ctx);
  const { customer } = await providerIdsOf(ctx, organisationId);
  return callProvider(settings, 'retry the payment of the open invoice', async (stripe) => {
    const [open] = (await stripe.invoices.list({ customer, status: 'open', limit: 1 })).data;
    if (!open?.id) throw new AppError('not_found', `the organisation ${organisationId} has no open invoice at the payment provider`);
    const paid = await stripe.invoices.pay(open.id);
    return { invoiceId: open.id, status: paid.status ?? 'open', amountDue: paid.amount_due };
  });
}

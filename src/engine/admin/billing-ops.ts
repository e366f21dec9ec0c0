/**
 * The administrator endpoints on an organisation's subscription at the
 * payment provider: cancel it, refund its latest payment, retry its failed
 * payment. The provider is called in the operation's external step, with no
 * transaction open; run then appends the audit row and answers with what
 * the provider did. A refusal (by the provider too) writes no audit row.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { instant } from '../output.js';
import { pence } from '../schema.js';
import { cancelSubscription, refundLatestPayment, retryOpenInvoice } from '../billing/admin-actions.js';
import { auditReason, auditedWrite } from './audit.js';
import { organisationId } from './org-ops.js';
import { handOver, taken } from './provider-step.js';

const audit = (action: string, id: string, details: Record<string, unknown>) => ({ action, entityType: 'organisation' as const, entityId: id, details });

export const cancelOrganisationSubscription = defineOperation({
  name: 'admin.cancel-subscription',
  summary: "Cancel an organisation's subscription at the payment provider: at once, or at the end of the period paid for",
  description: 'The organisation keeps its plan; its subscription status becomes canceled (or stays active with cancelAtPeriodEnd). Without one: 409.',
  access: 'admin',
  method: 'POST',
  path: '/admin/orgs/{id}/cancel-subscription',
  params: { id: organisationId() },
  body: {
    atPeriodEnd: z.boolean().default(false).describe('let the period paid for run out first'),
    reason: auditReason('asked by the customer'),
  },
  output: z.strictObject({
    subscriptionId: z.string(),
    status: z.string().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    currentPeriodEnd: instant().nullable(),
  }),
  async external(ctx, input) {
    handOver(input, await cancelSubscription(ctx, input.id, { atPeriodEnd: input.atPeriodEnd }));
  },
  async run(ctx, input) {
    const change = taken<Awaited<ReturnType<typeof cancelSubscription>>>(input);
    await auditedWrite(ctx, () =>
      Promise.resolve({
        result: null,
        audit: audit('SUBSCRIPTION_CANCELLED', input.id, { ...change, atPeriodEnd: input.atPeriodEnd, reason: input.reason ?? null }),
      }),
    );
    return { data: change };
  },
});

export const refundOrganisationPayment = defineOperation({
  name: 'admin.refund',
  summary: "Refund in full the payment of an organisation's latest paid invoice at the payment provider",
  description: 'Without a paid invoice (or a customer): 404 (409).',
  access: 'admin',
  method: 'POST',
  path: '/admin/orgs/{id}/refund',
  params: { id: organisationId() },
  body: {
    reason: auditReason('charged twice').describe('kept in the audit log and on the refund'),
  },
  output: z.strictObject({
    refundId: z.string(),
    invoiceId: z.string(),
    paymentId: z.string(),
    amount: pence().describe('refunded, in pence'),
    currency: z.string(),
    status: z.string(),
  }),
  async external(ctx, input) {
    handOver(input, await refundLatestPayment(ctx, input.id, input.reason === undefined ? {} : { reason: input.reason }));
  },
  async run(ctx, input) {
    const refund = taken<Awaited<ReturnType<typeof refundLatestPayment>>>(input);
    await auditedWrite(ctx, () => Promise.resolve({ result: null, audit: audit('PAYMENT_REFUNDED', input.id, { ...refund, reason: input.reason ?? null }) }));
    return { data: refund };
  },
});

export const retryOrganisationPayment = defineOperation({
  name: 'admin.retry-payment',
  summary: "Try again to collect an organisation's open invoice (after a failed payment) at the payment provider",
  description: 'No open invoice: 404. Refused again by the card issuer: 422 billing_provider_rejected, and no audit row.',
  access: 'admin',
  method: 'POST',
  path: '/admin/orgs/{id}/retry-payment',
  params: { id: organisationId() },
  output: z.strictObject({
    invoiceId: z.string(),
    status: z.string().describe('the invoice after the attempt: paid when the payment went through'),
    amountDue: pence().describe('in pence'),
  }),
  async external(ctx, input) {
    handOver(input, await retryOpenInvoice(ctx, input.id));
  },
  async run(ctx, input) {
    const retry = taken<Awaited<ReturnType<typeof retryOpenInvoice>>>(input);
    await auditedWrite(ctx, () => Promise.resolve({ result: null, audit: audit('PAYMENT_RETRIED', input.id, { ...retry }) }));
    return { data: retry };
  },
});

export const subscriptionOperations = [cancelOrganisationSubscription, refundOrganisationPayment, retryOrganisationPayment] as const;

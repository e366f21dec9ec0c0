/**
 * POST /stripe-webhook/stripe: the card-payment provider's events. Public,
 * and trusted only through the signature over the raw body
 * (provider-events.ts); once that is good the answer is always 200
 * {received: true}, whether the event was applied, failed, ignored or a
 * redelivery.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { receiveEvent, signatureHeader } from './provider-events.js';

export const webhookOp = defineOperation({
  name: 'billing.webhook',
  summary: "Receive an event of the card-payment provider (Stripe): signature checked, stored once, the subscription's state updated",
  description:
    'The Stripe-Signature header is checked over the raw body (timestamp within 300 s of acct’s clock, before or after): missing or bad is 400 ' +
    'validation_error (Missing signature, Webhook Error: …), no signing secret configured is 422 billing_not_configured. A signed event without ' +
    'its id, type or created is 400 validation_error naming it, nothing stored. Acted on: customer.subscription.created, .updated and .deleted, ' +
    'checkout.session.completed, invoice.paid and invoice.payment_failed; other types are stored and marked processed. An event id already ' +
    'stored is not applied again.',
  access: 'public',
  method: 'POST',
  path: '/stripe-webhook/stripe',
  signed: { header: signatureHeader },
  body: { payload: z.string(), signature: z.string().optional() },
  cli: { custom: true },
  output: z.strictObject({ received: z.literal(true) }),
  async run(ctx, input) {
    await receiveEvent(ctx, input.payload, input.signature);
    return { data: { received: true as const } };
  },
});

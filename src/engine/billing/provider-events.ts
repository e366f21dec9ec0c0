/**
 * The provider's events, checked and kept: the signature verified over the
 * raw body with the SDK (300 s tolerance either way, against ctx.clock), the event
 * stored pending once per event id, then applied to its organisation's
 * subscription state and marked processed, or failed with the reason. A
 * redelivered event id is not applied again (unless it failed before, or
 * was left pending by a process that stopped before applying it).
 */
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import type { Ctx } from '../operation.js';
import { appErrorOf } from '../../store/driver-errors.js';
import type { PlatformDb } from '../../store/tables.js';
import { stripeSdk } from './provider.js';
import { keepSubscription, mayAdopt, paidPlanOf, type SubscriptionFacts } from './subscription.js';

/** How far a signature's timestamp may be from acct's clock, before or after, in seconds (the SDK's default, which checks only the past). */
export const signatureTolerance = 300;

/** The signature header's timestamp (Unix seconds), read as the SDK reads it: the last t= element. */
function signedAt(signature: string): number {
  let at = -1;
  for (const item of signature.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') at = parseInt(value ?? '', 10);
  }
  return at;
}

/** The event's fields acct stores and orders by: id and type non-empty strings, created whole Unix seconds; else 400 naming the field. */
function checkedEvent(event: Stripe.Event): Stripe.Event {
  const fields: Record<string, unknown> = typeof event === 'object' && event !== null ? (event as unknown as Record<string, unknown>) : {};
  for (const field of ['id', 'type'] as const) {
    if (typeof fields[field] !== 'string' || fields[field] === '') {
      throw new AppError('validation_error', `the provider event has no ${field}: a non-empty string is required`, field);
    }
  }
  if (!Number.isSafeInteger(fields['created'])) {
    throw new AppError('validation_error', 'the provider event has no created: its creation time in whole Unix seconds is required', 'created');
  }
  return event;
}

/** The header the provider signs with. */
export const signatureHeader = 'stripe-signature';

/** The event the payload holds, its signature verified; 400 for a missing or bad one, 422 when no signing secret is configured. */
export async function verifiedEvent(ctx: Ctx, payload: string, signature: string | undefined): Promise<Stripe.Event> {
  const secret = ctx.billing?.webhookSecret;
  if (!secret) {
    throw new AppError(
      'billing_not_configured',
      'provider events are not accepted: start acct serve with --stripe-webhook-secret (or set ACCT_STRIPE_WEBHOOK_SECRET) to the endpoint’s signing secret',
    );
  }
  if (!signature) throw new AppError('validation_error', 'Missing signature: the Stripe-Signature header is required', signatureHeader);
  const Sdk = await stripeSdk();
  let event: Stripe.Event;
  try {
    // receivedAt is in milliseconds: the SDK divides it by 1000.
    event = Sdk.webhooks.constructEvent(payload, signature, secret, signatureTolerance, undefined, ctx.clock.now().getTime());
  } catch (e) {
    throw new AppError('validation_error', `Webhook Error: ${(e as Error).message.split('\n')[0] ?? ''}`, signatureHeader);
  }
  if (signedAt(signature) - Math.floor(ctx.clock.now().getTime() / 1000) > signatureTolerance) {
    throw new AppError('validation_error', 'Webhook Error: Timestamp outside the tolerance zone', signatureHeader);
  }
  return checkedEvent(event);
}

type Trx = Kysely<PlatformDb>;

const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);

/** The organisation an object names: our metadata's organisationId when it is one, else by the provider customer. */
async function organisationOf(trx: Trx, customer: string | null, metadata: Stripe.Metadata | null | undefined): Promise<string> {
  const named = metadata?.['organisationId'];
  if (named) {
    const row = await trx.selectFrom('organisations').select('id').where('id', '=', named).executeTakeFirst();
    if (row) return row.id;
  }
  if (customer) {
    const row = await trx.selectFrom('organisations').select('id').where('stripe_customer_id', '=', customer).executeTakeFirst();
    if (row) return row.id;
  }
  throw new AppError('not_found', `no organisation has the provider customer ${customer ?? '(none)'}${named ? ` or the id ${named}` : ''}`);
}

function factsOf(sub: Stripe.Subscription): SubscriptionFacts {
  return {
    id: sub.id,
    status: sub.status,
    currentPeriodEnd: sub.items?.data?.[0]?.current_period_end ?? null,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    plan: paidPlanOf(sub.metadata?.['plan']),
  };
}

/** A subscription created, changed or ended. */
async function onSubscription(trx: Trx, event: Stripe.Event, sub: Stripe.Subscription): Promise<string> {
  const organisationId = await organisationOf(trx, idOf(sub.customer), sub.metadata);
  const facts = factsOf(sub);
  await keepSubscription(trx, organisationId, event.type === 'customer.subscription.deleted' ? { ...facts, status: 'canceled' } : facts, event.created);
  return organisationId;
}

/**
 * A checkout completed: the customer, subscription and plan are linked to
 * the organisation. The subscription's own events carry its status; until
 * one of them has arrived it is trialing when nothing was paid (a trial
 * carried over), else active.
 */
async function onCheckout(trx: Trx, event: Stripe.Event, session: Stripe.Checkout.Session): Promise<string> {
  const organisationId = await organisationOf(trx, idOf(session.customer), session.metadata);
  const subscription = idOf(session.subscription);
  const plan = paidPlanOf(session.metadata?.['plan']);
  const row = await trx.selectFrom('organisations').selectAll().where('id', '=', organisationId).executeTakeFirstOrThrow();
  const customer = idOf(session.customer);
  // Another subscription of the customer's (a second checkout completed) is linked only while no live one is current.
  const current = subscription !== null && row.stripe_subscription_id === subscription;
  const adopt = subscription !== null && !current && mayAdopt(row, subscription, 'active');
  const change = {
    ...(row.stripe_customer_id === null && customer ? { stripe_customer_id: customer } : {}),
    ...((current || adopt) && plan ? { plan } : {}),
    ...(adopt
      ? {
          stripe_subscription_id: subscription,
          subscription_status: session.payment_status === 'no_payment_required' ? ('trialing' as const) : ('active' as const),
          current_period_end: null,
          cancel_at_period_end: 0,
          subscription_changed_at: event.created,
        }
      : {}),
  };
  if (Object.keys(change).length > 0) await trx.updateTable('organisations').set(change).where('id', '=', organisationId).execute();
  return organisationId;
}

/** The subscription an invoice bills, if any. */
const invoiceSubscription = (invoice: Stripe.Invoice): string | null => idOf(invoice.parent?.subscription_details?.subscription ?? null);

/**
 * An invoice paid or failed: a failed payment makes an active or trialing
 * subscription past_due; a paid one makes a past_due or unpaid one active
 * again (a paid trial invoice of £0 leaves trialing be). The
 * subscription's own update, which the provider also sends, may follow.
 */
async function onInvoice(trx: Trx, event: Stripe.Event, invoice: Stripe.Invoice, paid: boolean): Promise<string> {
  const organisationId = await organisationOf(trx, idOf(invoice.customer), null);
  const subscription = invoiceSubscription(invoice);
  const from = paid ? (['past_due', 'unpaid'] as const) : (['active', 'trialing'] as const);
  const change = trx
    .updateTable('organisations')
    .set({ subscription_status: paid ? 'active' : 'past_due', subscription_changed_at: event.created })
    .where('id', '=', organisationId)
    .where('subscription_status', 'in', from)
    .where((eb) => eb.or([eb('subscription_changed_at', 'is', null), eb('subscription_changed_at', '<=', event.created)]));
  await (subscription ? change.where('stripe_subscription_id', '=', subscription) : change).execute();
  return organisationId;
}

/** Apply one event; the organisation it concerned, or null for a type acct does not act on. */
export async function applyEvent(trx: Trx, event: Stripe.Event): Promise<string | null> {
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return onSubscription(trx, event, event.data.object);
    case 'checkout.session.completed':
      return onCheckout(trx, event, event.data.object);
    case 'invoice.paid':
      return onInvoice(trx, event, event.data.object, true);
    case 'invoice.payment_failed':
      return onInvoice(trx, event, event.data.object, false);
    default:
      return null;
  }
}

/**
 * How long a pending event is taken to be in hand. Applying one takes
 * milliseconds; a pending event older than this was left by a process that
 * stopped between storing and applying it, and the provider's redelivery
 * (sent because that process never answered) applies it.
 */
export const abandonedClaimMs = 60_000;

/** Store the event as pending unless it is already stored (processed, or pending and in hand); whether it is to be applied now. */
async function claim(ctx: Ctx, event: Stripe.Event): Promise<boolean> {
  return ctx.platform.write(async (trx) => {
    const stored = await trx.selectFrom('provider_events').select(['status', 'received_at']).where('id', '=', event.id).executeTakeFirst();
    const abandoned = stored?.status === 'pending' && ctx.clock.now().getTime() - Date.parse(stored.received_at) >= abandonedClaimMs;
    if (stored && stored.status !== 'failed' && !abandoned) return false;
    const row = { type: event.type, status: 'pending' as const, received_at: timestamp(ctx.clock), processed_at: null, error: null };
    if (stored) await trx.updateTable('provider_events').set(row).where('id', '=', event.id).execute();
    else
      await trx
        .insertInto('provider_events')
        .values({ id: event.id, organisation_id: null, ...row })
        .execute();
    return true;
  });
}

/** Receive one signed event: verified, stored once, applied (processed) or not (failed, with the reason). */
export async function receiveEvent(ctx: Ctx, payload: string, signature: string | undefined): Promise<void> {
  const event = await verifiedEvent(ctx, payload, signature);
  if (!(await claim(ctx, event))) return;
  try {
    await ctx.platform.write(async (trx) => {
      const organisationId = await applyEvent(trx, event);
      await trx
        .updateTable('provider_events')
        .set({ status: 'processed', organisation_id: organisationId, processed_at: timestamp(ctx.clock) })
        .where('id', '=', event.id)
        .execute();
    });
  } catch (e) {
    const error = appErrorOf(e);
    const reason = error.code === 'internal_error' && error.cause instanceof Error ? error.cause.message : error.message;
    await ctx.platform.write((trx) =>
      trx
        .updateTable('provider_events')
        .set({ status: 'failed', processed_at: timestamp(ctx.clock), error: reason })
        .where('id', '=', event.id)
        .execute(),
    );
  }
}

/**
 * Subscription billing: the plans, the organisation's billing status, and
 * a checkout or billing portal session at the card-payment provider.
 * Checkout and portal talk to the provider in their external step, with
 * no transaction open, and keep the session opened (billing_sessions);
 * their run answers with it.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { defineOperation, type Ctx } from '../operation.js';
import { instant } from '../output.js';
import { pence } from '../schema.js';
import { sterling } from '../money.js';
import { loadOrganisation, businessTypes, type BusinessType } from '../organisation/organisation.js';
import { isSubscribed, trialDaysLeft } from '../organisation/profile.js';
import { paidPlans, plans, type PaidPlan } from './plans.js';
import { billingRowOf, billingStatus, subscriptionStatuses } from './subscription.js';
import { configuredBilling, createCheckoutSession, createCustomer, createPortalSession, expireOpenCheckouts, type ConfiguredBilling } from './provider.js';

const planIds = ['trial', ...paidPlans] as const;
const returnUrl = () => z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).meta({ examples: ['https://example.com/account'] });

const organisationIdOf = (ctx: Ctx): string => {
  if (!ctx.principal) throw new AppError('unauthorized', 'an API key is required');
  return ctx.principal.organisationId;
};

/** Refuse a test key's request to start or manage a subscription: it would be billed for real. */
function refuseTestMode(ctx: Ctx): void {
  if (ctx.principal?.mode === 'test') {
    throw new AppError(
      'forbidden',
      'billing is managed with a live key or a user session: a test key (sk_test_) works on the sandbox books and cannot subscribe',
    );
  }
}

export const plansOp = defineOperation({
  name: 'billing.plans',
  summary: 'The plans an organisation can subscribe to: name, business type, monthly price',
  description: 'Prices are in pence a month, VAT included, billed monthly in advance through the card-payment provider.',
  access: 'any-key',
  method: 'GET',
  path: '/billing/plans',
  output: z.array(
    z.strictObject({
      id: z.enum(paidPlans),
      name: z.string(),
      businessType: z.enum(businessTypes).describe('the business type, and chart of accounts, the plan is made for'),
      monthlyPrice: pence().describe('pence a month, VAT included'),
      currency: z.literal('GBP'),
      interval: z.literal('month'),
    }),
  ),
  run: () => Promise.resolve({ data: paidPlans.map((id) => ({ ...plans[id], currency: 'GBP' as const, interval: 'month' as const })) }),
});

export const statusOp = defineOperation({
  name: 'billing.status',
  summary: "The organisation's plan, trial and subscription",
  description:
    'plan is trial until a subscription starts. trialDaysRemaining is 0 once the trial has ended or a subscription has started (trialEndsAt is then null); ' +
    'subscription is the provider subscription as its events left it, or null.',
  access: 'all-scopes',
  method: 'GET',
  path: '/billing/status',
  output: z.strictObject({
    plan: z.enum(planIds),
    planName: z.string(),
    isTrialActive: z.boolean(),
    trialDaysRemaining: z.number().int().min(0),
    trialEndsAt: instant().nullable(),
    hasStripeCustomer: z.boolean(),
    hasSubscription: z.boolean(),
    subscription: z.strictObject({ status: z.enum(subscriptionStatuses), currentPeriodEnd: instant().nullable(), cancelAtPeriodEnd: z.boolean() }).nullable(),
  }),
  async run(ctx) {
    return { data: billingStatus(await billingRowOf(ctx.platform.db, organisationIdOf(ctx)), ctx.clock) };
  },
});

/** The organisation's provider customer: the one it has, or one made now and kept. */
async function customerOf(ctx: Ctx, settings: ConfiguredBilling, organisationId: string, existing: string | null): Promise<string> {
  if (existing) return existing;
  const org = await loadOrganisation(ctx.store.org(organisationId, 'live').db);
  const user = await ctx.platform.db.selectFrom('users').select('email').where('organisation_id', '=', organisationId).orderBy('id').executeTakeFirst();
  const made = await createCustomer(settings, { organisationId, name: org.name, email: org.email ?? user?.email ?? null });
  await ctx.platform.write((trx) =>
    trx.updateTable('organisations').set({ stripe_customer_id: made }).where('id', '=', organisationId).where('stripe_customer_id', 'is', null).execute(),
  );
  // Another request may have kept its customer first: use that one.
  return (await billingRowOf(ctx.platform.db, organisationId)).stripe_customer_id ?? made;
}

/** A return address: the request's, else the configured one, else a 400 naming the field. */
function returnTo(settings: ConfiguredBilling, given: string | undefined, field: string, query: string): string {
  if (given) return given;
  if (settings.returnUrl) return `${settings.returnUrl}${settings.returnUrl.includes('?') ? '&' : '?'}${query}`;
  throw new AppError('validation_error', `say where the payment provider sends the customer back: ${field}, or acct serve --billing-return-url`, field);
}

/** Who a business type is, one and many, in messages. */
const whoIs: Readonly<Record<BusinessType, { readonly one: string; readonly many: string }>> = {
  sole_trader: { one: 'a sole trader', many: 'sole traders' },
  limited_company: { one: 'a limited company', many: 'limited companies' },
};

/**
 * 422 on plan unless it is the plan made for the organisation's business type (its live books'), as the service acct follows sells
 * its plans: the business type sets the chart, the features (directors, dividends) and the rate limit, so the plan paid for must match.
 */
async function requireFittingPlan(ctx: Ctx, organisationId: string, plan: PaidPlan): Promise<void> {
  const businessType = (await loadOrganisation(ctx.store.org(organisationId, 'live').db)).business_type;
  if (plans[plan].businessType === businessType) return;
  const fits = paidPlans.find((id) => plans[id].businessType === businessType);
  const offer = fits ? `${fits} (${sterling(plans[fits].monthlyPrice)} a month)` : 'no plan';
  throw new AppError(
    'unprocessable_entity',
    `plan ${plan} is for ${whoIs[plans[plan].businessType].many}: ${whoIs[businessType].one} subscribes to ${offer}`,
    'plan',
  );
}

interface CheckoutInput {
  readonly plan: PaidPlan;
  readonly successUrl?: string | undefined;
  readonly cancelUrl?: string | undefined;
}

/** The external step of checkout: the plan checked against the business type, then the customer, then the session, kept for run. */
async function openCheckout(ctx: Ctx, input: CheckoutInput): Promise<void> {
  const settings = configuredBilling(ctx);
  refuseTestMode(ctx);
  const organisationId = organisationIdOf(ctx);
  await requireFittingPlan(ctx, organisationId, input.plan);
  const successUrl = returnTo(settings, input.successUrl, 'successUrl', 'checkout=success&session_id={CHECKOUT_SESSION_ID}');
  const cancelUrl = returnTo(settings, input.cancelUrl, 'cancelUrl', 'checkout=cancelled');
  const row = await billingRowOf(ctx.platform.db, organisationId);
  if (isSubscribed(row)) {
    throw new AppError(
      'conflict',
      `the organisation already has a ${row.subscription_status ?? ''} subscription: change plan or cancel it in the billing portal (POST /billing/portal)`,
    );
  }
  if (row.stripe_customer_id !== null) await expireOpenCheckouts(settings, row.stripe_customer_id);
  const customerId = await customerOf(ctx, settings, organisationId, row.stripe_customer_id);
  const trialDays = trialDaysLeft(row, ctx.clock);
  const session = await createCheckoutSession(settings, { organisationId, customerId, plan: input.plan, trialDays, successUrl, cancelUrl });
  await ctx.platform.write((trx) =>
    trx
      .insertInto('billing_sessions')
      .values({
        id: session.id,
        organisation_id: organisationId,
        kind: 'checkout',
        plan: input.plan,
        trial_days: trialDays,
        url: session.url,
        created_at: timestamp(ctx.clock),
      })
      .execute(),
  );
}

/** The session the external step kept: the organisation's latest of its kind (and plan). */
async function latestSession(ctx: Ctx, kind: 'checkout' | 'portal', plan?: PaidPlan) {
  let query = ctx.platform.db.selectFrom('billing_sessions').selectAll().where('organisation_id', '=', organisationIdOf(ctx)).where('kind', '=', kind);
  if (plan) query = query.where('plan', '=', plan);
  const row = await query.orderBy('seq', 'desc').limit(1).executeTakeFirst();
  if (!row) throw new AppError('internal_error', `no ${kind} session was kept`);
  return row;
}

export const checkoutOp = defineOperation({
  name: 'billing.checkout',
  summary: "Start a subscription: a checkout session at the card-payment provider; the trial's remaining days carry over",
  description:
    'plan must be the one made for the organisation’s business type (GET /billing/plans): sole_trader for a sole trader, limited_company for a ' +
    'limited company; the other is 422 unprocessable_entity, its message naming the plan that fits, before the provider is asked and with nothing ' +
    'written. ' +
    'Makes the provider customer if the organisation has none. The days left of the trial become the subscription’s trial at the provider, so ' +
    'subscribing mid-trial loses none. An organisation already subscribed (active, trialing, past_due or unpaid) gets 409: the portal changes plans. ' +
    'A checkout session opened earlier and still open at the provider (the customer went back from the provider’s page) is expired there first, so that ' +
    'only the latest can be paid (completing two would start two subscriptions); one completed meanwhile gives 409 and nothing is made. ' +
    'successUrl and cancelUrl default to acct serve --billing-return-url. Without a provider key configured: 422 billing_not_configured, nothing written; ' +
    'with a test key: 403 forbidden.',
  access: 'all-scopes',
  method: 'POST',
  path: '/billing/checkout',
  body: {
    plan: z
      .enum(paidPlans)
      .describe("the plan made for the organisation's business type: sole_trader for a sole trader, limited_company for a limited company"),
    successUrl: returnUrl().optional().describe('where the provider sends the customer after paying'),
    cancelUrl: returnUrl().optional().describe('where the provider sends the customer who goes back'),
  },
  output: z.strictObject({
    checkoutUrl: z.string().describe("the provider's hosted checkout page"),
    sessionId: z.string(),
    trialDays: z.number().int().min(0).describe('the trial days carried over to the subscription'),
  }),
  external: openCheckout,
  async run(ctx, input) {
    const session = await latestSession(ctx, 'checkout', input.plan);
    return { data: { checkoutUrl: session.url, sessionId: session.id, trialDays: session.trial_days ?? 0 } };
  },
});

/** The external step of the portal: a session for the organisation's provider customer, kept for run. */
async function openPortal(ctx: Ctx, input: { readonly returnUrl?: string | undefined }): Promise<void> {
  const settings = configuredBilling(ctx);
  refuseTestMode(ctx);
  const organisationId = organisationIdOf(ctx);
  const row = await billingRowOf(ctx.platform.db, organisationId);
  if (!row.stripe_customer_id) {
    throw new AppError('invalid_request', 'the organisation has no customer at the payment provider yet: subscribe first (POST /billing/checkout)');
  }
  const back = returnTo(settings, input.returnUrl, 'returnUrl', 'portal=done');
  const session = await createPortalSession(settings, row.stripe_customer_id, back);
  await ctx.platform.write((trx) =>
    trx
      .insertInto('billing_sessions')
      .values({
        id: session.id,
        organisation_id: organisationId,
        kind: 'portal',
        plan: null,
        trial_days: null,
        url: session.url,
        created_at: timestamp(ctx.clock),
      })
      .execute(),
  );
}

export const portalOp = defineOperation({
  name: 'billing.portal',
  summary: "The card-payment provider's billing portal: change the card or plan, see invoices, cancel",
  description: 'An organisation with no provider customer (never checked out) gets 400 invalid_request. returnUrl defaults to acct serve --billing-return-url.',
  access: 'all-scopes',
  method: 'POST',
  path: '/billing/portal',
  body: { returnUrl: returnUrl().optional().describe('where the portal sends the customer back') },
  output: z.strictObject({ portalUrl: z.string() }),
  external: openPortal,
  async run(ctx) {
    return { data: { portalUrl: (await latestSession(ctx, 'portal')).url } };
  },
});

/**
 * The client of the card-payment provider (Stripe), through its official
 * SDK, loaded on first use. Every call is made outside any database write
 * transaction and its failures become the engine's errors: the provider
 * unreachable or failing (5xx) is 503 billing_provider_unavailable, a key
 * it refuses 422 billing_not_configured, any other refusal 422
 * billing_provider_rejected with the provider's message.
 */
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import { AppError } from '../errors.js';
import { assertOutsideTransaction } from '../external.js';
import type { Ctx } from '../operation.js';
import { stripeApiUrl, type BillingSettings } from '../stripe.js';
import type { PaidPlan } from './plans.js';
import { plans } from './plans.js';

/** The settings with a secret key: 422 billing_not_configured without one. */
export interface ConfiguredBilling extends BillingSettings {
  readonly secretKey: string;
}

const notConfigured = () =>
  new AppError(
    'billing_not_configured',
    'billing is not configured: start acct serve with --stripe-key (or set ACCT_STRIPE_KEY) to the payment provider’s secret key',
  );

/** The billing settings of ctx, refused (422) when no secret key is configured. */
export function configuredBilling(ctx: Ctx): ConfiguredBilling {
  const settings = ctx.billing;
  if (!settings?.secretKey) throw notConfigured();
  return { ...settings, secretKey: settings.secretKey };
}

/** The SDK's options for a base URL: host, port and protocol (http for a local stand-in). */
export function connectionOf(baseUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  let url: URL;
  try {
    url = new URL(baseUrl || stripeApiUrl);
  } catch {
    throw new AppError(
      'validation_error',
      `the payment provider's base URL ${baseUrl} is not a URL (--stripe-base-url, ACCT_STRIPE_BASE_URL)`,
      'stripe-base-url',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('validation_error', `the payment provider's base URL must be an https:// URL, not ${baseUrl}`, 'stripe-base-url');
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/**
 * The SDK itself, loaded on first use: most commands never bill anything.
 * Required rather than imported, as bin/acct's bundle runs without dynamic
 * import; its CommonJS build exports the constructor itself.
 */
export function stripeSdk(): Promise<typeof Stripe> {
  return Promise.resolve(createRequire(import.meta.url)('stripe') as typeof Stripe);
}

async function clientOf(settings: ConfiguredBilling): Promise<Stripe> {
  const Sdk = await stripeSdk();
  return new Sdk(settings.secretKey, {
    ...connectionOf(settings.baseUrl),
    // A retry is the caller's to make: the request then fails at once with 503 rather than waiting out the SDK's back-off.
    maxNetworkRetries: 0,
    timeout: settings.timeoutMs ?? 30_000,
    telemetry: false,
  });
}

interface SdkError {
  readonly type?: string;
  readonly statusCode?: number;
  readonly message?: string;
}

/** A failure of the SDK as the engine's error. */
function translate(e: unknown, settings: BillingSettings): AppError {
  if (e instanceof AppError) return e;
  const err = (e ?? {}) as SdkError;
  const said = err.message ?? String(e);
  if (err.type === 'StripeConnectionError' || err.type === 'StripeAPIError' || (err.statusCode ?? 0) >= 500 || err.statusCode === undefined) {
    return new AppError('billing_provider_unavailable', `the payment provider did not answer at ${settings.baseUrl} (${said}); try again later`, undefined, {
      cause: e,
    });
  }
  if (err.type === 'StripeAuthenticationError' || err.statusCode === 401) {
    return new AppError('billing_not_configured', `the payment provider refuses the configured key (--stripe-key, ACCT_STRIPE_KEY): ${said}`);
  }
  if (err.statusCode === 429) {
    return new AppError('billing_provider_unavailable', `the payment provider is limiting requests (${said}); try again later`, undefined, { cause: e });
  }
  return new AppError('billing_provider_rejected', `the payment provider refused the request: ${said}`);
}

/** One call to the provider, never inside a write transaction. */
export async function callProvider<T>(settings: ConfiguredBilling, what: string, work: (stripe: Stripe) => Promise<T>): Promise<T> {
  assertOutsideTransaction(`a call to the payment provider (${what})`);
  try {
    return await work(await clientOf(settings));
  } catch (e) {
    throw translate(e, settings);
  }
}

export interface NewCustomer {
  readonly organisationId: string;
  readonly name: string;
  readonly email: string | null;
}

/** A customer at the provider for the organisation; its id (cus_…). */
export async function createCustomer(settings: ConfiguredBilling, customer: NewCustomer): Promise<string> {
  const made = await callProvider(settings, 'create a customer', (stripe) =>
    stripe.customers.create({
      name: customer.name,
      ...(customer.email ? { email: customer.email } : {}),
      metadata: { organisationId: customer.organisationId },
    }),
  );
  return made.id;
}

export interface NewCheckout {
  readonly organisationId: string;
  readonly customerId: string;
  readonly plan: PaidPlan;
  /** The trial days carried over; 0 for none. */
  readonly trialDays: number;
  readonly successUrl: string;
  readonly cancelUrl: string;
}

export interface ProviderSession {
  readonly id: string;
  readonly url: string;
}

const sessionOf = (s: { id: string; url: string | null }, what: string): ProviderSession => {
  if (!s.url) throw new AppError('billing_provider_unavailable', `the payment provider opened ${what} ${s.id} without a URL`);
  return { id: s.id, url: s.url };
};

/**
 * A hosted checkout of a monthly subscription to the plan, its price given
 * inline (GBP, VAT included), the remaining trial days carried over as the
 * subscription's trial, and the organisation and plan in the metadata of
 * both the session and the subscription, which the webhook reads back.
 */
export async function createCheckoutSession(settings: ConfiguredBilling, checkout: NewCheckout): Promise<ProviderSession> {
  const plan = plans[checkout.plan];
  const metadata = { organisationId: checkout.organisationId, plan: plan.id };
  const made = await callProvider(settings, 'open a checkout session', (stripe) =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: checkout.customerId,
      client_reference_id: checkout.organisationId,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'gbp',
            unit_amount: plan.monthlyPrice,
            tax_behavior: 'inclusive',
            recurring: { interval: 'month' },
            product_data: { name: `acct ${plan.name}` },
          },
        },
      ],
      subscription_data: { metadata, ...(checkout.trialDays > 0 ? { trial_period_days: checkout.trialDays } : {}) },
      metadata,
      success_url: checkout.successUrl,
      cancel_url: checkout.cancelUrl,
    }),
  );
  return sessionOf(made, 'checkout session');
}

/**
 * Expires the customer's checkout sessions still open at the provider, so
 * that only the one about to be made can be paid: completing two would
 * start two subscriptions, both charged. A session the provider will not
 * expire was completed meanwhile (or is being paid): 409, nothing made.
 */
export async function expireOpenCheckouts(settings: ConfiguredBilling, customerId: string): Promise<void> {
  const open = await callProvider(settings, 'list open checkout sessions', (stripe) =>
    stripe.checkout.sessions.list({ customer: customerId, status: 'open', limit: 100 }),
  );
  for (const session of open.data) {
    try {
      await callProvider(settings, 'expire an open checkout session', (stripe) => stripe.checkout.sessions.expire(session.id));
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== 'billing_provider_rejected') throw e;
      throw new AppError(
        'conflict',
        `a checkout opened earlier (${session.id}) was completed at the payment provider just now and could not be expired: see GET /billing/status`,
      );
    }
  }
}

/** A billing portal session where the customer manages card, plan and cancellation. */
export async function createPortalSession(settings: ConfiguredBilling, customerId: string, returnUrl: string): Promise<ProviderSession> {
  const made = await callProvider(settings, 'open a billing portal session', (stripe) =>
    stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
  );
  return sessionOf(made, 'billing portal session');
}

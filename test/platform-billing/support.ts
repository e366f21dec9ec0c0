/** Shared steps of the billing tests (not a test file itself): books served with billing pointed at the provider's stand-in. */
import type { Test } from 'tap';
import { movingClock, newBooks, serveBooks, type Api, type Books, type MovingClock, type Reply } from '../helpers/index.js';
import type { BillingSettings } from '../../src/engine/stripe.js';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';
import { signed, standInKey, startStandIn, webhookSecret, type StandIn } from './stripe-stand-in.js';
import type Stripe from 'stripe';

/** Created on 5 January 2026 at 10:00 UTC, the first organisation of its data directory: a 90-day trial to 5 April 2026 10:00. */
export const created = '2026-01-05T10:00:00Z';
export const trialEnd = '2026-04-05T10:00:00.000Z';
export const day = 86_400_000;

export interface Billed {
  readonly books: Books;
  readonly clock: MovingClock;
  readonly api: Api & { readonly logged: unknown[] };
  readonly standIn: StandIn;
  readonly settings: BillingSettings;
}

/**
 * Books on a moving clock (made at `created`, or `at`), served with billing configured against a fresh stand-in (or as `billing` says: null
 * for none). The organisation is a limited company, whose plan is limited_company, unless `organisation` says otherwise.
 */
export async function billedBooks(
  t: Test,
  options: { billing?: Partial<BillingSettings> | null; at?: string; organisation?: Partial<NewOrganisation> } = {},
): Promise<Billed> {
  const clock = movingClock(options.at ?? created);
  const books = await newBooks(t, { clock, ...(options.organisation ? { organisation: options.organisation } : {}) });
  const standIn = await startStandIn();
  t.teardown(() => standIn.stop());
  const settings: BillingSettings = {
    secretKey: standInKey,
    baseUrl: standIn.url,
    webhookSecret,
    returnUrl: 'https://app.example.com/billing',
    ...options.billing,
  };
  const api = await serveBooks(t, books, options.billing === null ? {} : { billing: settings });
  return { books, clock, api, standIn, settings };
}

export const nowSeconds = (clock: MovingClock): number => Math.floor(clock.now().getTime() / 1000);

/** Deliver an event to the receiver, signed now (or as given). */
export function deliver(
  b: Billed,
  event: Stripe.Event,
  options: { timestamp?: number; secret?: string; tamper?: (payload: string) => string } = {},
): Promise<Reply> {
  const { payload, signature } = signed(event, options.timestamp ?? nowSeconds(b.clock), options.secret);
  const body = options.tamper ? options.tamper(payload) : payload;
  return b.api.request('POST', '/v1/stripe-webhook/stripe', {
    key: null,
    raw: body,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
  });
}

/** Deliver every event and expect 200 {received: true} for each. */
export async function deliverAll(t: Test, b: Billed, events: readonly Stripe.Event[]): Promise<void> {
  for (const event of events) {
    const r = await deliver(b, event);
    t.equal(r.status, 200, `${event.type} received: ${JSON.stringify(r.body?.error ?? '')}`);
    t.same(r.body, { success: true, data: { received: true } });
  }
}

/** POST /billing/checkout for the plan; the reply. */
export const checkout = (b: Billed, plan: string, key?: string): Promise<Reply> =>
  b.api.request('POST', '/v1/billing/checkout', { body: { plan }, ...(key === undefined ? {} : { key }) });

/** The organisation's billing status. */
export async function status(t: Test, b: Billed, key?: string): Promise<Record<string, unknown>> {
  const r = await b.api.request('GET', '/v1/billing/status', key === undefined ? {} : { key });
  t.equal(r.status, 200, `status read: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data as Record<string, unknown>;
}

/** What billing has written for the organisation: its provider ids and the sessions kept. */
export async function written(b: Billed) {
  const row = await b.books.store.platform.db.selectFrom('organisations').selectAll().where('id', '=', b.books.organisationId).executeTakeFirstOrThrow();
  const sessions = await b.books.store.platform.db.selectFrom('billing_sessions').select(['id', 'kind']).execute();
  return {
    plan: row.plan,
    customer: row.stripe_customer_id,
    subscription: row.stripe_subscription_id,
    status: row.subscription_status,
    sessions: sessions.length,
  };
}

/** What `written` reads before billing has written anything. */
export const nothing = { plan: 'trial', customer: null, subscription: null, status: null, sessions: 0 };

/** Subscribe mid-trial: checkout (by default for limited_company, the plan of billedBooks' limited company), then the customer completes it at the provider and its events are delivered. */
export async function subscribe(t: Test, b: Billed, plan = 'limited_company'): Promise<{ sessionId: string; subscriptionId: string }> {
  const r = await checkout(b, plan);
  t.equal(r.status, 200, `checkout: ${JSON.stringify(r.body?.error ?? '')}`);
  const events = b.standIn.completeCheckout(r.body.data.sessionId, nowSeconds(b.clock));
  await deliverAll(t, b, events);
  return { sessionId: r.body.data.sessionId, subscriptionId: String(b.standIn.sessions.get(r.body.data.sessionId)?.['subscription']) };
}

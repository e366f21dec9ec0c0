/**
 * An organisation's billing state on its platform row: the plan, the
 * trial, and the provider subscription as the provider's events (and the
 * administrator's actions) leave it.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { platformRowOf, trialState } from '../organisation/profile.js';
import type { OrganisationsRow, PlatformDb, SubscriptionStatus } from '../../store/tables.js';
import { paidPlans, planName, type PaidPlan } from './plans.js';

export const subscriptionStatuses = ['active', 'trialing', 'past_due', 'canceled', 'unpaid'] as const satisfies readonly SubscriptionStatus[];

export const billingRowOf = (platform: Kysely<PlatformDb>, organisationId: string): Promise<OrganisationsRow> => platformRowOf(platform, organisationId);

export interface BillingStatus {
  readonly plan: OrganisationsRow['plan'];
  readonly planName: string;
  readonly isTrialActive: boolean;
  readonly trialDaysRemaining: number;
  readonly trialEndsAt: string | null;
  readonly hasStripeCustomer: boolean;
  readonly hasSubscription: boolean;
  readonly subscription: { status: SubscriptionStatus; currentPeriodEnd: string | null; cancelAtPeriodEnd: boolean } | null;
}

/** GET /billing/status: the plan, the trial (trialState, as GET /organisation shows it) and the provider subscription. */
export function billingStatus(row: OrganisationsRow, clock: Clock): BillingStatus {
  return {
    plan: row.plan,
    planName: planName(row.plan),
    ...trialState(row, clock),
    hasStripeCustomer: row.stripe_customer_id !== null,
    hasSubscription: row.stripe_subscription_id !== null,
    subscription:
      row.subscription_status === null
        ? null
        : { status: row.subscription_status, currentPeriodEnd: row.current_period_end, cancelAtPeriodEnd: row.cancel_at_period_end === 1 },
  };
}

/** What the provider says of a subscription, as far as acct keeps it. */
export interface SubscriptionFacts {
  readonly id: string;
  /** The provider's status word (active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused). */
  readonly status: string;
  /** Unix seconds, or null. */
  readonly currentPeriodEnd: number | null;
  readonly cancelAtPeriodEnd: boolean;
  readonly plan: PaidPlan | null;
}

/**
 * The provider's status as one of acct's five: incomplete_expired (the
 * first payment never made) is canceled, paused (a trial ended without a
 * card) is unpaid; incomplete (the first payment still under way) is none,
 * and leaves the state as it was.
 */
export function statusOf(providerStatus: string): SubscriptionStatus | null {
  if ((subscriptionStatuses as readonly string[]).includes(providerStatus)) return providerStatus as SubscriptionStatus;
  if (providerStatus === 'incomplete_expired') return 'canceled';
  if (providerStatus === 'paused') return 'unpaid';
  return null;
}

export const paidPlanOf = (value: unknown): PaidPlan | null => ((paidPlans as readonly unknown[]).includes(value) ? (value as PaidPlan) : null);

const isoOf = (unix: number | null): string | null => (unix === null ? null : new Date(unix * 1000).toISOString());

/**
 * Whether a subscription's events may set the organisation's state: the
 * current subscription's may; another's only while no live subscription is
 * current (none yet, or the current one canceled), and only when it is live
 * itself. So a second subscription of the same customer (two checkouts
 * completed) neither replaces the current one nor, when it ends, cancels
 * the organisation.
 */
export function mayAdopt(row: OrganisationsRow, subscriptionId: string, status: SubscriptionStatus): boolean {
  if (row.stripe_subscription_id === subscriptionId) return true;
  return status !== 'canceled' && (row.stripe_subscription_id === null || row.subscription_status === null || row.subscription_status === 'canceled');
}

/**
 * Keep the subscription's state on the organisation when it is the current
 * subscription, unless a later change of it is already kept (`changedAt`,
 * the event's creation time in Unix seconds: the provider does not promise
 * to deliver events in order), or when it is a live one adopted while none
 * is (mayAdopt), whatever its time. Whether it was kept.
 */
export async function keepSubscription(trx: Kysely<PlatformDb>, organisationId: string, facts: SubscriptionFacts, changedAt: number): Promise<boolean> {
  const status = statusOf(facts.status);
  if (status === null) return false;
  const row = await billingRowOf(trx, organisationId);
  if (!mayAdopt(row, facts.id, status)) return false;
  const kept = await trx
    .updateTable('organisations')
    .set({
      stripe_subscription_id: facts.id,
      subscription_status: status,
      current_period_end: isoOf(facts.currentPeriodEnd),
      cancel_at_period_end: facts.cancelAtPeriodEnd ? 1 : 0,
      subscription_changed_at: changedAt,
      ...(facts.plan ? { plan: facts.plan } : {}),
    })
    .where('id', '=', organisationId)
    .where((eb) =>
      row.stripe_subscription_id === facts.id
        ? eb.and([
            eb('stripe_subscription_id', '=', facts.id),
            eb.or([eb('subscription_changed_at', 'is', null), eb('subscription_changed_at', '<=', changedAt)]),
          ])
        : eb.or([eb('stripe_subscription_id', 'is', null), eb('subscription_status', 'is', null), eb('subscription_status', '=', 'canceled')]),
    )
    .executeTakeFirst();
  return kept.numUpdatedRows === 1n;
}

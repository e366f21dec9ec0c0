/**
 * The plans an organisation pays for. Prices are not published by the
 * service acct follows, so acct sets its own: monthly, in advance, in
 * pence, VAT included (the terms' billing cycle). Each plan names the
 * business type whose chart of accounts it is made for.
 */
import type { BusinessType } from '../organisation/organisation.js';
import type { BillingPlanId } from '../../store/tables.js';

export const paidPlans = ['sole_trader', 'limited_company'] as const;
export type PaidPlan = (typeof paidPlans)[number];

export interface PlanFacts {
  readonly id: PaidPlan;
  readonly name: string;
  readonly businessType: BusinessType;
  /** Pence a month, VAT included. */
  readonly monthlyPrice: number;
}

export const plans: Readonly<Record<PaidPlan, PlanFacts>> = {
  sole_trader: { id: 'sole_trader', name: 'Sole Trader', businessType: 'sole_trader', monthlyPrice: 1200 },
  limited_company: { id: 'limited_company', name: 'Limited Company', businessType: 'limited_company', monthlyPrice: 2400 },
};

export const planName = (plan: BillingPlanId): string => (plan === 'trial' ? 'Free trial' : plans[plan].name);

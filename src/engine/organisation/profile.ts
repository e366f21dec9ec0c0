/**
 * The organisation profile: as GET /organisation shows it (address nested,
 * with its settings, the mode of the key and the subscription), and
 * changing it. The operations are in organisation-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { found } from '../lookup.js';
import { daysBetween } from '../dates.js';
import { londonDateAt, timestamp, today, type Clock } from '../clock.js';
import { instant } from '../output.js';
import { businessTypes, loadOrganisation, type OrganisationRow } from './organisation.js';
import { settingsSchema, settingsView } from './settings.js';
import type { OrganisationsRow, OrgDb, PlatformDb } from '../../store/tables.js';
import type { Mode } from '../../store/store.js';

/** The trial's states, then the provider subscription's (billing), which win once there is one. */
export const subscriptionStatuses = ['trialing', 'trial_expired', 'active', 'past_due', 'canceled', 'unpaid'] as const;

const subscriptionSchema = z.strictObject({
  status: z.enum(subscriptionStatuses),
  plan: z.enum(businessTypes).describe('the plan a trial counts as: the business type'),
  trialDays: z.number().int(),
  trialEndsAt: instant().nullable().describe('null once subscribed: the days left then run as the provider subscription’s trial'),
  trialDaysRemaining: z.number().int().describe('0 once the trial has ended or a subscription has started'),
  earlyAccess: z.boolean().describe('made while early-access spots remained: the 90-day trial'),
});
type Subscription = z.output<typeof subscriptionSchema>;

/**
 * Days left of the organisation's trial (fixed when it was created): from today's date to the date it ends, both in
 * Europe/London; its last day, while the trial runs, counts as one (so checkout carries it over and the card is not
 * charged before the trial ends); 0 once it has ended.
 */
export const trialDaysLeft = (platformRow: OrganisationsRow, clock: Clock): number =>
  timestamp(clock) < platformRow.trial_ends_at ? Math.max(1, daysBetween(today(clock), londonDateAt(new Date(platformRow.trial_ends_at)))) : 0;

/** A subscription not canceled: the organisation is on its plan (a trial carried over at the provider counts). */
export const isSubscribed = (row: OrganisationsRow): boolean => row.subscription_status !== null && row.subscription_status !== 'canceled';

export interface TrialState {
  readonly isTrialActive: boolean;
  readonly trialDaysRemaining: number;
  readonly trialEndsAt: string | null;
}

/**
 * The trial as GET /billing/status, GET /organisation and the administrator's
 * views all show it: active while the organisation has no live subscription
 * and the trial has not ended; once subscribed the trial is over for the
 * service (0 days, trialEndsAt null), its days carried over running as the
 * provider subscription's trial.
 */
export function trialState(row: OrganisationsRow, clock: Clock): TrialState {
  const subscribed = isSubscribed(row);
  return {
    isTrialActive: !subscribed && timestamp(clock) < row.trial_ends_at,
    trialDaysRemaining: subscribed ? 0 : trialDaysLeft(row, clock),
    trialEndsAt: subscribed ? null : row.trial_ends_at,
  };
}

function subscriptionView(platformRow: OrganisationsRow, plan: OrganisationRow['business_type'], clock: Clock): Subscription {
  const trial = trialState(platformRow, clock);
  return {
    status: platformRow.subscription_status ?? (timestamp(clock) < platformRow.trial_ends_at ? 'trialing' : 'trial_expired'),
    plan,
    trialDays: platformRow.trial_days,
    trialEndsAt: trial.trialEndsAt,
    trialDaysRemaining: trial.trialDaysRemaining,
    earlyAccess: platformRow.early_access === 1,
  };
}

export const organisationSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  businessType: z.enum(businessTypes),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  vatNumber: z.string().nullable(),
  companyNumber: z.string().nullable(),
  address: z.strictObject({
    line1: z.string().nullable(),
    line2: z.string().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string().describe('ISO 3166-1 alpha-2'),
  }),
  settings: settingsSchema,
  mode: z.enum(['live', 'test'] as const satisfies readonly Mode[]).describe('the books the key opens: live, or test for sk_test_ keys'),
  subscription: subscriptionSchema,
  createdAt: instant(),
  updatedAt: instant(),
});
export type Organisation = z.output<typeof organisationSchema>;

/** The organisation as shown; `schemeFrom` is settings' schemeChangedFrom. */
export function organisationView(row: OrganisationRow, schemeFrom: string | null, platformRow: OrganisationsRow, mode: Mode, clock: Clock): Organisation {
  return {
    id: row.id,
    name: row.name,
    businessType: row.business_type,
    email: row.email,
    phone: row.phone,
    website: row.website,
    vatNumber: row.vat_number,
    companyNumber: row.company_number,
    address: {
      line1: row.address_line1,
      line2: row.address_line2,
      city: row.city,
      region: row.region,
      postalCode: row.postal_code,
      country: row.country,
    },
    settings: settingsView(row, schemeFrom),
    mode,
    subscription: subscriptionView(platformRow, row.business_type, clock),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The platform's record of an organisation: its trial. */
export async function platformRowOf(platform: Kysely<PlatformDb>, id: string): Promise<OrganisationsRow> {
  return found(platform.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst(), 'organisation', id);
}

export interface ProfileChange {
  readonly name?: string;
  readonly businessType?: OrganisationRow['business_type'];
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly website?: string | null;
  readonly vatNumber?: string | null;
  readonly companyNumber?: string | null;
  readonly addressLine1?: string | null;
  readonly addressLine2?: string | null;
  readonly city?: string | null;
  readonly region?: string | null;
  readonly postalCode?: string | null;
  readonly country?: string;
}

/** Change the fields given; the row as it is now. */
export async function changeProfile(trx: Kysely<OrgDb>, clock: Clock, change: ProfileChange): Promise<OrganisationRow> {
  await trx
    .updateTable('organisation')
    .set({
      name: change.name,
      business_type: change.businessType,
      email: change.email,
      phone: change.phone,
      website: change.website,
      vat_number: change.vatNumber,
      company_number: change.companyNumber,
      address_line1: change.addressLine1,
      address_line2: change.addressLine2,
      city: change.city,
      region: change.region,
      postal_code: change.postalCode,
      country: change.country,
      updated_at: timestamp(clock),
    })
    .execute();
  return loadOrganisation(trx);
}

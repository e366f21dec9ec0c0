/**
 * Early access: the first 50 organisations of a data directory get a 90-day
 * trial, the others 30 days. Provisioning (`acct init`) fixes the trial by
 * this rule; GET /early-access/stats (platform/early-access.ts) shows how
 * many spots it has left. An administrator may switch early access off
 * (the early_access_enabled setting): every new organisation then gets 30
 * days, spots or not.
 */
import type { Kysely } from 'kysely';
import type { PlatformDb } from '../../store/tables.js';

export const earlyAccessSpots = 50 as const;

/** The organisations that count toward the spots: every one of the data directory (there are no users to verify yet). */
export async function organisationCount(db: Kysely<PlatformDb>): Promise<number> {
  const { count } = await db
    .selectFrom('organisations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The trial an organisation created after `existing` others gets, while early access is `enabled` (the administrators' setting). */
export function earlyAccessTrial(existing: number, enabled: boolean): { readonly earlyAccess: boolean; readonly trialDays: 90 | 30 } {
  const earlyAccess = enabled && existing < earlyAccessSpots;
  return { earlyAccess, trialDays: earlyAccess ? 90 : 30 };
}

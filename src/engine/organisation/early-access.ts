/**
 * Early access: 50 spots. A spot is claimed by an organisation with at
 * least one user who has verified their e-mail address and is not an
 * administrator (a verified signup). While fewer than 50 are claimed a new
 * organisation gets a 90-day trial, else 30 days. Provisioning (`acct init`,
 * registration) fixes the trial by this rule when it makes the organisation; GET /early-access/stats (platform/early-access.ts) shows how
 * many spots it has left. An administrator may switch early access off
 * (the early_access_enabled setting): every new organisation then gets 30
 * days, spots or not.
 */
import type { Kysely } from 'kysely';
import type { PlatformDb } from '../../store/tables.js';

export const earlyAccessSpots = 50 as const;

/** The spots claimed: organisations with a verified user who is not an administrator (never more than the spots). */
export async function claimedSpots(db: Kysely<PlatformDb>): Promise<number> {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.count<number>('organisation_id').distinct().as('count'))
    .where('email_verified', '=', 1)
    .where('is_admin', '=', 0)
    .executeTakeFirstOrThrow();
  return Math.min(Number(count), earlyAccessSpots);
}

/** The trial a new organisation gets with `claimed` spots taken, while early access is `enabled` (the administrators' setting). */
export function earlyAccessTrial(claimed: number, enabled: boolean): { readonly earlyAccess: boolean; readonly trialDays: 90 | 30 } {
  const earlyAccess = enabled && claimed < earlyAccessSpots;
  return { earlyAccess, trialDays: earlyAccess ? 90 : 30 };
}

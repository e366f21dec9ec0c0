/**
 * Early access: the first 50 organisations of a data directory get a 90-day
 * trial, the others 30 days. Provisioning (`acct init`) fixes the trial by
 * this rule; GET /early-access/stats shows how many spots it has left.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineOperation } from '../operation.js';
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

/** The trial an organisation created after `existing` others gets. */
export function earlyAccessTrial(existing: number): { readonly earlyAccess: boolean; readonly trialDays: 90 | 30 } {
  const earlyAccess = existing < earlyAccessSpots;
  return { earlyAccess, trialDays: earlyAccess ? 90 : 30 };
}

export const earlyAccessStats = defineOperation({
  name: 'early-access.stats',
  summary: 'Early-access spots: how many of the 50 are claimed, and the trial a new organisation gets',
  description:
    'A spot is claimed by each of the first 50 organisations of the data directory; trialDays is the trial the next organisation gets (90 while spots remain, else 30).',
  access: 'public',
  method: 'GET',
  path: '/early-access/stats',
  output: z.strictObject({
    totalSpots: z.literal(earlyAccessSpots),
    claimed: z.number().int().min(0).max(earlyAccessSpots),
    remaining: z.number().int().min(0).max(earlyAccessSpots),
    trialDays: z.union([z.literal(90), z.literal(30)]),
    isEarlyAccess: z.boolean().describe('whether the next organisation gets an early-access trial'),
  }),
  async run(ctx) {
    const count = await organisationCount(ctx.platform.db);
    const next = earlyAccessTrial(count);
    const claimed = Math.min(count, earlyAccessSpots);
    return {
      data: {
        totalSpots: earlyAccessSpots,
        claimed,
        remaining: earlyAccessSpots - claimed,
        trialDays: next.trialDays,
        isEarlyAccess: next.earlyAccess,
      },
    };
  },
});

/** GET /early-access/stats: the spots of the early-access rule (organisation/early-access.ts) claimed and left. */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { earlyAccessSpots, earlyAccessTrial, claimedSpots } from '../organisation/early-access.js';
import { siteSetting } from '../site-settings.js';

export const earlyAccessStats = defineOperation({
  name: 'early-access.stats',
  summary: 'Early-access spots: how many of the 50 are claimed, and the trial a new organisation gets',
  description:
    'A spot is claimed by an organisation with a user who has verified their e-mail address and is not an administrator; trialDays is the trial the next organisation gets (90 while spots remain and an administrator has not switched early access off, else 30).',
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
    const claimed = await claimedSpots(ctx.platform.db);
    const next = earlyAccessTrial(claimed, await siteSetting(ctx.platform.db, 'early_access_enabled'));
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

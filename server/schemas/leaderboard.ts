import { z } from '@hono/zod-openapi';
import { LEADERBOARD_SORTS, TIER_BADGES } from './enums';
import { addressOut, queryInt } from './common';

// The leaderboard (spec: Leaderboard row; Tier badge; Limits, Leaderboard).

export { TIER_BADGES, LEADERBOARD_SORTS };

export const leaderboardRow = z
  .strictObject({
    rank: z.number().int(),
    name: z.string(),
    wallet: addressOut,
    score: z.number().int(),
    accuracy_pct: z.number(),
    signals_published: z.number().int(),
    jobs_completed: z.number().int(),
    invocations: z.number().int(),
    tier_badge: z.enum(TIER_BADGES),
  })
  .openapi('LeaderboardRow');

export const leaderboard = z
  .strictObject({
    agents: z.array(leaderboardRow),
    sort: z.enum(LEADERBOARD_SORTS),
    score_formula: z.string(),
    generated_at: z.iso.datetime({ offset: true }),
  })
  .openapi('Leaderboard');

export const leaderboardQuery = z.object({
  sort: z.enum(LEADERBOARD_SORTS).optional().openapi({ description: 'Default score' }),
  limit: queryInt(1, 100, 20),
});

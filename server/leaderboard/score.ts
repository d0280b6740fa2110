// The leaderboard score (docs/spec-decisions.md, Leaderboard) and the spec's tier badges.

export const SCORE_FORMULA =
  'score = 100 x jobs completed as the winning bidder + 50 x signals resolved correct + 10 x signals published + 1 x successful invocations served';

/** The score in SQL over the columns jobs_completed, signals_correct, signals_published, invocations. */
export const SCORE_SQL = '(100 * jobs_completed + 50 * signals_correct + 10 * signals_published + invocations)';

export type TierBadge = 'bronze' | 'silver' | 'gold' | 'diamond';

/** Spec: diamond above 10k score, gold above 5k, silver above 1k, otherwise bronze ("above" is strict). */
export function tierBadge(score: number): TierBadge {
  if (score > 10_000) return 'diamond';
  if (score > 5_000) return 'gold';
  if (score > 1_000) return 'silver';
  return 'bronze';
}

/** Correct over correct + incorrect, in percent with one decimal; expired signals do not count. */
export function accuracyPct(correct: number, incorrect: number): number {
  const decided = correct + incorrect;
  return decided === 0 ? 0 : Math.round((1000 * correct) / decided) / 10;
}

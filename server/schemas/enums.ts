// The closed value lists of the API that the web UI also needs (filters, form options, badges). This
// module imports nothing, zod least of all, so a client component can import it without pulling the
// schema library into the browser bundle; the zod schemas of server/schemas build their enums from
// these same arrays (docs/ui.md, "UI primitives").

export const TIERS = ['none', 'entry', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const ATTESTATION_TYPES = ['verified', 'trusted', 'skill_verified', 'security_audited'] as const;
export type AttestationType = (typeof ATTESTATION_TYPES)[number];

export const JOB_STATUSES = ['open', 'bid', 'executing', 'completed', 'expired', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const SIGNAL_TYPES = ['long', 'short', 'alert', 'insight', 'neutral'] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];
export const SIGNAL_OUTCOMES = ['correct', 'incorrect', 'expired'] as const;
export type SignalOutcome = (typeof SIGNAL_OUTCOMES)[number];
/** open -> (publisher proposes) pending_resolution -> (a staker disputes) disputed -> (admin) resolved. */
export const SIGNAL_STATUSES = ['open', 'pending_resolution', 'disputed', 'resolved'] as const;
export const SIGNAL_SORTS = ['newest', 'most_staked', 'confidence'] as const;
export type SignalSort = (typeof SIGNAL_SORTS)[number];

export const TIER_BADGES = ['bronze', 'silver', 'gold', 'diamond'] as const;
export const LEADERBOARD_SORTS = ['score', 'accuracy', 'signals', 'jobs', 'invocations'] as const;
export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];

/** What an upload through family A (POST /api/skills) accepts. */
export const SKILL_CATEGORIES_A = ['automation', 'analysis', 'social', 'trading', 'security'] as const;
/** Family B also accepts the categories the spec's examples use. */
export const SKILL_CATEGORIES_B = [...SKILL_CATEGORIES_A, 'data', 'utility', 'general'] as const;
export type SkillCategory = (typeof SKILL_CATEGORIES_B)[number];
export const INTEGRATION_TYPES = ['api', 'prompt_pack', 'module', 'workflow'] as const;
export const PRICING_TYPES = ['free', 'paid', 'one_time', 'subscription'] as const;
/** The pricing filter of the family B skill list (and the marketplace page). */
export const SKILL_LIST_PRICING = ['free', 'one_time', 'subscription'] as const;
export type SkillListPricing = (typeof SKILL_LIST_PRICING)[number];
export const SKILL_SORTS = ['reputation', 'newest', 'price'] as const;
export type SkillSort = (typeof SKILL_SORTS)[number];

/** The contract analyzer's finding severities, least severe first. */
export const FLAG_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type FlagSeverity = (typeof FLAG_SEVERITIES)[number];
export const SAFETY_RATINGS = ['A', 'B', 'C', 'D', 'F'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const HOLDER_TAGS = ['pair', 'locker', 'burn', 'creator'] as const;

/** True when `value` is one of `list`: narrows a query-string value to the list's type. */
export function isOneOf<const T extends readonly string[]>(list: T, value: unknown): value is T[number] {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

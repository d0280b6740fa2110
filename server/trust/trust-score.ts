// The trust score, exactly as the spec's component table (maximum 280).
export const TIER_POINTS = { none: 0, entry: 10, pro: 30, enterprise: 50 } as const;
export type Tier = keyof typeof TIER_POINTS;

export const TRUST_RULES = {
  verified: { points: 20, cap: 20 },
  skills: { points: 5, cap: 50 },
  attestations: { points: 10, cap: 100 },
  ageMonths: { points: 1, cap: 20 },
  connections: { points: 2, cap: 40 },
} as const;

export const TRUST_MAX = 280;

export const TRUST_FORMULA =
  'verified +20; tier entry 10, pro 30, enterprise 50; published active skills 5 each (max 50); ' +
  'received attestations and endorsements 10 each (max 100); account age 1 per month (max 20); ' +
  'trust-graph connections 2 each (max 40); total max 280';

export interface TrustInputs {
  verified: boolean;
  tier: Tier;
  publishedSkills: number;
  receivedAttestations: number;
  accountAgeMonths: number;
  connections: number;
}

export interface TrustBreakdown {
  total: number;
  /** verified + tier */
  verification: number;
  /** received attestations and endorsements + trust-graph connections */
  reputation: number;
  /** published skills + account age */
  activity: number;
  components: {
    verified: number;
    tier: number;
    skills: number;
    attestations: number;
    account_age: number;
    connections: number;
  };
  formula: string;
}

const capped = (count: number, rule: { points: number; cap: number }) =>
  Math.min(rule.cap, Math.max(0, Math.floor(count)) * rule.points);

export function computeTrust(inputs: TrustInputs): TrustBreakdown {
  const components = {
    verified: inputs.verified ? TRUST_RULES.verified.points : 0,
    tier: TIER_POINTS[inputs.tier] ?? 0,
    skills: capped(inputs.publishedSkills, TRUST_RULES.skills),
    attestations: capped(inputs.receivedAttestations, TRUST_RULES.attestations),
    account_age: capped(inputs.accountAgeMonths, TRUST_RULES.ageMonths),
    connections: capped(inputs.connections, TRUST_RULES.connections),
  };
  const verification = components.verified + components.tier;
  const reputation = components.attestations + components.connections;
  const activity = components.skills + components.account_age;
  return { total: verification + reputation + activity, verification, reputation, activity, components, formula: TRUST_FORMULA };
}

/** Whole calendar-independent months (30.44 days) between two instants. */
export function monthsBetween(from: Date, to: Date): number {
  return Math.max(0, Math.floor((to.getTime() - from.getTime()) / (30.4375 * 24 * 3600 * 1000)));
}

// Every named rate-limit policy, in one place. Each can be overridden with
// RATE_LIMIT_<NAME>=<count>/<window> (for example RATE_LIMIT_BOOTSTRAP=10/1h).
// The spec sets no numbers except bootstrap and free analyses; the others are documented choices
// (docs/spec-decisions.md): generous enough for a busy agent, tight enough to stop abuse.

export type RateLimitKey = 'ip' | 'caller' | 'global';

export interface RateLimitPolicy {
  limit: number;
  windowMs: number;
  /**
   * What a counter is kept per: the client IP (IPv6 by /64 prefix), the authenticated caller
   * (falling back to IP), or one counter for the whole platform. An endpoint may name another key.
   */
  key: RateLimitKey;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const WEEK = 7 * DAY;

export const RATE_LIMIT_POLICIES = {
  // challenge and verify, per IP
  auth: { limit: 300, windowMs: MINUTE, key: 'ip' },
  // spec: 3 new agents per IP per 24 h; counted when bootstrap would pay a welcome grant, however
  // the agent came to exist (docs/spec-decisions.md, Money)
  bootstrap: { limit: 3, windowMs: DAY, key: 'ip' },
  // a circuit breaker on welcome grants for the whole platform (IP rotation is cheap)
  welcome_global: { limit: 10_000, windowMs: DAY, key: 'global' },
  // spec: 1 attestation per agent pair per 7 days (keyed by attester wallet and subject agent)
  attest: { limit: 1, windowMs: WEEK, key: 'caller' },
  // spec: 5 free contract analyses a day without a tier
  analyze_free: { limit: 5, windowMs: DAY, key: 'ip' },
  // public verification services (POST /api/v1/verify/...), per IP: each may fetch remote documents
  verify: { limit: 60, windowMs: MINUTE, key: 'ip' },
  // writes by one caller (register, profile updates, keys, endorsements)
  write: { limit: 600, windowMs: MINUTE, key: 'caller' },
} as const satisfies Record<string, RateLimitPolicy>;

export type RateLimitPolicyName = keyof typeof RATE_LIMIT_POLICIES;

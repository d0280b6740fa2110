import { feeOf } from '../core/money';

// The job market's numbers (spec: Limits, Jobs; docs/spec-decisions.md, Jobs).

/** The platform fee taken from the bounty at completion: 5%. */
export const JOB_FEE_BPS = 500n;
/** expires_at when the poster sends none. */
export const DEFAULT_JOB_LIFETIME_MS = 7 * 24 * 3600 * 1000;
/** expires_at may lie at most this far ahead, and at least a minute. */
export const MAX_JOB_LIFETIME_MS = 90 * 24 * 3600 * 1000;
export const MIN_JOB_LIFETIME_MS = 60 * 1000;

/** 5% of the bounty, rounded up (at least 1 micro-CLAW). */
export function jobFee(bounty: bigint): bigint {
  return feeOf(bounty, JOB_FEE_BPS);
}

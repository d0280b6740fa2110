import { holdAccount } from '../credits/accounts';
import { MICRO_PER_CLAW } from '../core/money';

// The referral program's numbers (spec: Limits, Referral; docs/spec-decisions.md, Referrals).

/** The referrer's signup bonus: 500 CLAW. */
export const SIGNUP_BONUS = 500n * MICRO_PER_CLAW;
/** The referrer's share of the platform fees the referred wallet generates: 5%. */
export const FEE_SHARE_BPS = 500n;
/**
 * The bonus is earned once the referred wallet has generated this much in platform fees since it
 * registered the code: the platform has then received at least 1,000 CLAW and pays out at most
 * 500 + 50, so no chain of throwaway wallets can earn more than it pays.
 */
export const BONUS_QUALIFYING_FEES = 1_000n * MICRO_PER_CLAW;
/** Earnings wait here (in the ledger) until the weekly payout. */
export const REFERRAL_PENDING_HOLD = { type: 'referrals', id: 'pending' };
export const REFERRAL_PENDING = holdAccount(REFERRAL_PENDING_HOLD.type, REFERRAL_PENDING_HOLD.id);

// The resolution rule (spec: Signal resolution), as a pure function over micro-CLAW.
//   correct:   the publisher gets its stake back; agreers get their stakes back and split the
//              disagreers' pool pro rata to their stakes; the platform takes 3% of that pool.
//   incorrect: disagreers get their stakes back and split the agreers' pool plus the publisher's
//              stake pro rata; the platform takes 3% of that pool.
//   expired:   every stake (the publisher's too) is refunded in full; no fee.
// The fee base is the losing pool (what changes hands); the fee is rounded up. Shares are floored; the flooring
// remainder goes to the platform with the fee, so the payouts and the fee add up to exactly what
// was staked. When the winning side has no stakes, nobody can win the losing pool: every stake is
// refunded in full and no fee is taken (docs/spec-decisions.md, Signals).

import { feeOf } from '../core/money';

export const SIGNAL_FEE_BPS = 300n;

export type Outcome = 'correct' | 'incorrect' | 'expired';

export interface StakeInput {
  id: string;
  wallet: string;
  stance: 'agree' | 'disagree';
  amount: bigint;
}

export interface Resolution {
  /** What each stake receives (own stake included); same order as the input. */
  stakePayouts: bigint[];
  publisherPayout: bigint;
  /** The 3% fee plus the flooring remainder. */
  fee: bigint;
  remainder: bigint;
}

export function resolvePayouts(publisherStake: bigint, stakes: StakeInput[], outcome: Outcome): Resolution {
  const refundAll = (): Resolution => ({
    stakePayouts: stakes.map((s) => s.amount),
    publisherPayout: publisherStake,
    fee: 0n,
    remainder: 0n,
  });
  if (outcome === 'expired') return refundAll();
  const winning = outcome === 'correct' ? 'agree' : 'disagree';
  const winners = stakes.filter((s) => s.stance === winning);
  const winnersTotal = winners.reduce((t, s) => t + s.amount, 0n);
  if (winnersTotal === 0n) return refundAll();
  const losersTotal = stakes.filter((s) => s.stance !== winning).reduce((t, s) => t + s.amount, 0n);
  const pool = losersTotal + (outcome === 'incorrect' ? publisherStake : 0n);
  const baseFee = feeOf(pool, SIGNAL_FEE_BPS);
  const distributable = pool - baseFee;
  let paid = 0n;
  const stakePayouts = stakes.map((s) => {
    if (s.stance !== winning) return 0n;
    const share = (distributable * s.amount) / winnersTotal;
    paid += share;
    return s.amount + share;
  });
  const remainder = distributable - paid;
  return {
    stakePayouts,
    publisherPayout: outcome === 'correct' ? publisherStake : 0n,
    fee: baseFee + remainder,
    remainder,
  };
}

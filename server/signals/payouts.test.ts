import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvePayouts, type StakeInput } from './payouts';

const M = 1_000_000n;
const stake = (id: string, stance: 'agree' | 'disagree', claw: bigint): StakeInput => ({
  id,
  wallet: id,
  stance,
  amount: claw * M,
});

describe('resolvePayouts', () => {
  it('three agreers of 1 each split a disagreers’ pool of 10 with the remainder to the platform', () => {
    const stakes = [stake('a', 'agree', 1n), stake('b', 'agree', 1n), stake('c', 'agree', 1n), stake('d', 'disagree', 10n)];
    const r = resolvePayouts(5n * M, stakes, 'correct');
    // pool 10, fee 3% = 0.3, distributable 9.7 / 3 = 3.233333 each, remainder 0.000001
    expect(r.stakePayouts).toEqual([4_233_333n, 4_233_333n, 4_233_333n, 0n]);
    expect(r.publisherPayout).toBe(5n * M);
    expect(r.remainder).toBe(1n);
    expect(r.fee).toBe(300_001n);
  });

  it('incorrect: disagreers split the agreers’ pool plus the publisher’s stake, pro rata', () => {
    const stakes = [stake('a', 'agree', 6n), stake('b', 'disagree', 1n), stake('c', 'disagree', 3n)];
    const r = resolvePayouts(4n * M, stakes, 'incorrect');
    // pool 10, fee 0.3, 9.7 split 1:3 => 2.425 and 7.275
    expect(r.stakePayouts).toEqual([0n, M + 2_425_000n, 3n * M + 7_275_000n]);
    expect(r.publisherPayout).toBe(0n);
    expect(r.fee).toBe(300_000n);
  });

  it('expired refunds everything; a winning side without stakes refunds everything', () => {
    const stakes = [stake('a', 'agree', 2n), stake('b', 'disagree', 3n)];
    expect(resolvePayouts(M, stakes, 'expired')).toEqual({
      stakePayouts: [2n * M, 3n * M],
      publisherPayout: M,
      fee: 0n,
      remainder: 0n,
    });
    const onlyAgree = [stake('a', 'agree', 2n)];
    expect(resolvePayouts(M, onlyAgree, 'incorrect')).toEqual({
      stakePayouts: [2n * M],
      publisherPayout: M,
      fee: 0n,
      remainder: 0n,
    });
    expect(resolvePayouts(M, [], 'correct')).toEqual({ stakePayouts: [], publisherPayout: M, fee: 0n, remainder: 0n });
  });

  it('conserves money exactly for any stakes and outcome', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: M, max: 10n ** 12n }),
        fc.array(
          fc.record({
            stance: fc.constantFrom('agree' as const, 'disagree' as const),
            amount: fc.bigInt({ min: M, max: 10n ** 12n }),
          }),
          { maxLength: 30 },
        ),
        fc.constantFrom('correct' as const, 'incorrect' as const, 'expired' as const),
        (publisherStake, raw, outcome) => {
          const stakes = raw.map((s, i) => ({ ...s, id: String(i), wallet: String(i) }));
          const r = resolvePayouts(publisherStake, stakes, outcome);
          const total = publisherStake + stakes.reduce((t, s) => t + s.amount, 0n);
          const out = r.publisherPayout + r.fee + r.stakePayouts.reduce((t, p) => t + p, 0n);
          expect(out).toBe(total);
          expect(r.stakePayouts.every((p) => p >= 0n)).toBe(true);
          // a winner never gets less than its stake back; the fee is at most 3% of everything plus rounding
          expect(r.fee <= (total * 300n) / 10_000n + BigInt(stakes.length)).toBe(true);
        },
      ),
    );
  });
});

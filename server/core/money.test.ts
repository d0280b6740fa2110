import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeOf } from './money';

describe('feeOf', () => {
  it('rounds the fee up, so a tiny amount is never fee-free', () => {
    expect(feeOf(0n, 500n)).toBe(0n);
    expect(feeOf(1n, 500n)).toBe(1n);
    expect(feeOf(20n, 500n)).toBe(1n);
    expect(feeOf(21n, 500n)).toBe(2n);
    expect(feeOf(200_000_000n, 500n)).toBe(10_000_000n);
  });

  it('is the ceiling of amount x bps / 10,000, never more than the amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10_000n }), (amount, bps) => {
        const fee = feeOf(amount, bps);
        expect(fee >= 1n && fee <= amount).toBe(true);
        expect(fee * 10_000n >= amount * bps && (fee - 1n) * 10_000n < amount * bps).toBe(true);
      }),
    );
  });
});

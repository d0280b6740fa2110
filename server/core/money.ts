// CLAW amounts: exact integers of micro-CLAW inside, JSON numbers with at most 6 decimals outside.
export const MICRO_PER_CLAW = 1_000_000n;

/** micro-CLAW for a JSON number, or null when it is negative, not finite or has more than 6 decimals. */
export function clawToMicro(value: number): bigint | null {
  if (!Number.isFinite(value) || value < 0) return null;
  const text = String(value);
  if (/e/i.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 6) return null;
  return BigInt(whole!) * MICRO_PER_CLAW + BigInt(fraction.padEnd(6, '0'));
}

/**
 * A platform fee of `bps` basis points of `amount`, rounded **up** to the micro-CLAW: any amount
 * above 0 pays at least 1 micro-CLAW, so splitting work into tiny payments never avoids the fee.
 * Every fee the platform takes (jobs, signals, paid skills) is computed here.
 */
export function feeOf(amount: bigint, bps: bigint): bigint {
  return (amount * bps + 9_999n) / 10_000n;
}

/**
 * A JSON number for micro-CLAW. Both operands are exact below 2^53 micro-CLAW (about 9 billion
 * CLAW) and IEEE division rounds correctly, so the result is the double nearest the decimal.
 */
export function microToClaw(micro: bigint): number {
  return Number(micro) / 1e6;
}

import { describe, expect, it } from 'vitest';
import { tierAtLeast, tierForBalance } from './tiers';

const unit = 10n ** 18n;

describe('tierForBalance', () => {
  it.each([
    [0n, 'none'],
    [999_999n * unit, 'none'],
    [1_000_000n * unit - 1n, 'none'],
    [1_000_000n * unit, 'entry'],
    [10_000_000n * unit - 1n, 'entry'],
    [10_000_000n * unit, 'pro'],
    [50_000_000n * unit - 1n, 'pro'],
    [50_000_000n * unit, 'enterprise'],
    [10n ** 40n, 'enterprise'],
  ])('%s base units (18 decimals) is %s', (balance, tier) => {
    expect(tierForBalance(balance, 18)).toBe(tier);
  });

  it('respects the token decimals', () => {
    expect(tierForBalance(1_000_000n * 10n ** 6n, 6)).toBe('entry');
    expect(tierForBalance(1_000_000n * 10n ** 6n, 18)).toBe('none');
    expect(tierForBalance(50_000_000n, 0)).toBe('enterprise');
  });

  it('orders tiers', () => {
    expect(tierAtLeast('pro', 'entry')).toBe(true);
    expect(tierAtLeast('entry', 'pro')).toBe(false);
    expect(tierAtLeast('none', 'none')).toBe(true);
  });
});

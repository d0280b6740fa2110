import { describe, expect, it } from 'vitest';
import { accuracyPct, tierBadge } from './score';

describe('tierBadge', () => {
  it('is strict at each edge: 1,000/1,001, 5,000/5,001, 10,000/10,001', () => {
    expect([0, 1000, 1001, 5000, 5001, 10_000, 10_001].map(tierBadge)).toEqual([
      'bronze',
      'bronze',
      'silver',
      'silver',
      'gold',
      'gold',
      'diamond',
    ]);
  });
});

describe('accuracyPct', () => {
  it('counts correct over decided signals, one decimal', () => {
    expect(accuracyPct(0, 0)).toBe(0);
    expect(accuracyPct(2, 1)).toBe(66.7);
    expect(accuracyPct(1, 0)).toBe(100);
  });
});

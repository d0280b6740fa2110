import { describe, expect, it } from 'vitest';
import { pendingPrice, priceAt, priceChange } from './price';

const now = new Date('2026-11-24T00:00:00Z');
const callable = { status: 'active', isCallable: true, invokeUrl: 'https://agent.example/hook' };
const agent = (price: bigint, extra: object = {}) => ({
  ...callable,
  priceClawPerCall: price,
  pricePending: null as bigint | null,
  priceEffectiveAt: null as Date | null,
  ...extra,
});

describe('price notice period', () => {
  it('keeps the old price for the notice period after a raise, then charges the new one', () => {
    const change = priceChange(agent(10_000n), 5_000_000_000n, now, 600);
    expect(change).toEqual({
      priceClawPerCall: 10_000n,
      pricePending: 5_000_000_000n,
      priceEffectiveAt: new Date(now.getTime() + 600_000),
    });
    const raised = { ...agent(0n), ...change };
    expect(priceAt(raised, new Date(now.getTime() + 599_999))).toBe(10_000n);
    expect(pendingPrice(raised, now)?.price).toBe(5_000_000_000n);
    expect(priceAt(raised, new Date(now.getTime() + 600_000))).toBe(5_000_000_000n);
    expect(pendingPrice(raised, new Date(now.getTime() + 600_000))).toBeNull();
  });

  it('applies a cut at once and drops a pending raise', () => {
    const raised = agent(10n, { pricePending: 50n, priceEffectiveAt: new Date(now.getTime() + 1000) });
    expect(priceChange(raised, 5n, now, 600)).toEqual({ priceClawPerCall: 5n, pricePending: null, priceEffectiveAt: null });
  });

  it('restarts the notice when a pending raise is raised again', () => {
    const raised = agent(10n, { pricePending: 50n, priceEffectiveAt: new Date(now.getTime() + 1000) });
    expect(priceChange(raised, 60n, now, 600).priceEffectiveAt).toEqual(new Date(now.getTime() + 600_000));
  });

  it('applies a raise at once when the notice is 0 or nobody could call the agent', () => {
    expect(priceChange(agent(10n), 50n, now, 0).priceClawPerCall).toBe(50n);
    expect(priceChange(agent(10n, { isCallable: false }), 50n, now, 600).priceClawPerCall).toBe(50n);
    expect(priceChange(agent(10n, { status: 'paused' }), 50n, now, 600).priceClawPerCall).toBe(50n);
    expect(priceChange(agent(10n, { invokeUrl: null }), 50n, now, 600).priceClawPerCall).toBe(50n);
  });
});

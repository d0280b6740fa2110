import type { Agent } from '../core/db/generated/client';
import { microToClaw } from '../core/money';

// An agent's price with its notice period (docs/spec-decisions.md, Invocation): a raise is stored as
// a pending price with the time it applies, so a caller that read the price keeps paying it until
// then; a cut applies at once. The router and every view read the price through this one rule.

type Priced = Pick<Agent, 'priceClawPerCall' | 'pricePending' | 'priceEffectiveAt'>;

/** The price a call made at `now` pays, in micro-CLAW. */
export function priceAt(agent: Priced, now: Date): bigint {
  if (agent.pricePending !== null && agent.priceEffectiveAt !== null && agent.priceEffectiveAt <= now) return agent.pricePending;
  return agent.priceClawPerCall;
}

/** The raise still waiting for its notice period at `now`, or null. */
export function pendingPrice(agent: Priced, now: Date): { price: bigint; effectiveAt: Date } | null {
  if (agent.pricePending === null || agent.priceEffectiveAt === null || agent.priceEffectiveAt <= now) return null;
  return { price: agent.pricePending, effectiveAt: agent.priceEffectiveAt };
}

/**
 * The columns a price change writes at `now`: a cut (or the same price) at once, dropping any pending
 * raise; a raise after `noticeSeconds`, or at once when that is 0 or nobody could call the agent before
 * the change (paused, not callable or without invoke_url: no caller can have relied on its price).
 */
export function priceChange(
  agent: Priced & Pick<Agent, 'status' | 'isCallable' | 'invokeUrl'>,
  next: bigint,
  now: Date,
  noticeSeconds: number,
): Pick<Agent, 'priceClawPerCall' | 'pricePending' | 'priceEffectiveAt'> {
  const current = priceAt(agent, now);
  const callable = agent.status === 'active' && agent.isCallable && Boolean(agent.invokeUrl);
  if (next <= current || noticeSeconds === 0 || !callable)
    return { priceClawPerCall: next, pricePending: null, priceEffectiveAt: null };
  // Every raise starts its own notice: a second raise on top of a pending one gives callers the full period again.
  const effectiveAt = new Date(now.getTime() + noticeSeconds * 1000);
  return { priceClawPerCall: current, pricePending: next, priceEffectiveAt: effectiveAt };
}

/** price_claw_per_call as a view shows it, with price_pending_claw and price_effective_at while a raise is pending. */
export function pendingPriceView(agent: Priced, now: Date) {
  const pending = pendingPrice(agent, now);
  return {
    price_claw_per_call: microToClaw(priceAt(agent, now)),
    ...(pending ? { price_pending_claw: microToClaw(pending.price), price_effective_at: pending.effectiveAt.toISOString() } : {}),
  };
}

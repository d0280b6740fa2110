import { MICRO_PER_CLAW } from '../core/money';

// Strategies (spec: Strategy; creation 100 CLAW). Non-custodial: executing a strategy means that
// at each interval the service makes a fresh quote with the unsigned swap transaction for the
// owner's wallet and records it as an execution (status "quoted"); the owner's agent reads it
// (GET /trade/strategies/{id}), signs it and relays it through POST /trade/swap within 30 s.
// limit / take-profit fire when the price (token_out per token_in) is at or above trigger_price,
// stop-loss at or below; otherwise the execution is "skipped". docs/spec-decisions.md, Trade.

export const STRATEGY_CREATION_FEE = 100n * MICRO_PER_CLAW;

export const STRATEGY_LIMITS = { perWallet: 50, minIntervalSeconds: 60, executionsShown: 20, dueBatch: 50 } as const;

export type StrategyStatus = 'active' | 'paused' | 'cancelled' | 'completed';

export interface CreateStrategyInput {
  name: string;
  strategyType: 'dca' | 'limit' | 'stop-loss' | 'take-profit';
  tokenIn: string;
  tokenOut: string;
  amountInRaw: string;
  intervalSeconds: number;
  maxExecutions?: number;
  slippageBps: number;
  triggerPrice?: number;
}

import type { Strategy, StrategyExecution } from '../core/db/generated/client';
import type { CreateStrategyInput, StrategyStatus } from './strategy-rules';

export function executionView(execution: StrategyExecution) {
  return {
    execution_id: execution.id,
    status: execution.status as 'quoted' | 'skipped' | 'failed',
    quote: (execution.quote as Record<string, unknown> | null) ?? null,
    error: execution.error,
    created_at: execution.createdAt.toISOString(),
  };
}

export function strategyView(strategy: Strategy) {
  return {
    strategy_id: strategy.id,
    name: strategy.name,
    strategy_type: strategy.strategyType as CreateStrategyInput['strategyType'],
    token_in: strategy.tokenIn,
    token_out: strategy.tokenOut,
    amount_in_raw: strategy.amountInRaw,
    interval_seconds: strategy.intervalSeconds,
    max_executions: strategy.maxExecutions,
    slippage_bps: strategy.slippageBps,
    trigger_price: strategy.triggerPrice === null ? null : Number(strategy.triggerPrice),
    status: strategy.status as StrategyStatus,
    executions_count: strategy.executions,
    next_run_at: strategy.nextRunAt?.toISOString() ?? null,
    owner_wallet: strategy.ownerWallet,
    created_at: strategy.createdAt.toISOString(),
  };
}

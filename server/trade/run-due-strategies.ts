import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { db, withTransaction } from '../core/db';
import type { Strategy } from '../core/db/generated/client';
import { log } from '../core/log';
import { quote } from './quote';
import { STRATEGY_LIMITS } from './strategy-rules';

/** One execution of a due strategy: a fresh quote + unsigned transaction for the owner, or skipped. */
async function executeStrategy(strategy: Strategy, now: Date): Promise<void> {
  // Claim the tick: only the instance that moves next_run_at executes it.
  const claimed = await db().strategy.updateMany({
    where: { id: strategy.id, status: 'active', nextRunAt: strategy.nextRunAt },
    data: { nextRunAt: new Date(now.getTime() + strategy.intervalSeconds * 1000) },
  });
  if (claimed.count === 0) return;
  let status: 'quoted' | 'skipped' | 'failed' = 'quoted';
  let stored: Record<string, unknown> | null = null;
  let error: string | null = null;
  try {
    const q = await quote({
      tokenIn: strategy.tokenIn,
      tokenOut: strategy.tokenOut,
      amountInRaw: strategy.amountInRaw,
      slippageBps: strategy.slippageBps,
      recipient: strategy.ownerWallet as Address,
    });
    stored = q as unknown as Record<string, unknown>;
    const trigger = strategy.triggerPrice === null ? null : Number(strategy.triggerPrice);
    if (trigger !== null) {
      const fire = strategy.strategyType === 'stop-loss' ? q.price_per_token_in <= trigger : q.price_per_token_in >= trigger;
      if (!fire) status = 'skipped';
    }
  } catch (failure) {
    status = 'failed';
    error = (failure as Error).message.slice(0, 500);
  }
  const executions = strategy.executions + (status === 'quoted' ? 1 : 0);
  const done = status === 'quoted' && strategy.maxExecutions !== null && executions >= strategy.maxExecutions;
  await withTransaction(async (tx) => {
    await tx.prisma.strategyExecution.create({
      data: { id: randomUUID(), strategyId: strategy.id, status, quote: (stored ?? undefined) as never, error },
    });
    await tx.prisma.strategy.update({
      where: { id: strategy.id },
      data: { executions, ...(done ? { status: 'completed', nextRunAt: null } : {}), updatedAt: new Date() },
    });
  });
}

/** The scheduled executor: every active strategy whose next_run_at has passed. */
export async function runDueStrategies(now = new Date()): Promise<number> {
  const due = await db().strategy.findMany({
    where: { status: 'active', nextRunAt: { lte: now } },
    orderBy: { nextRunAt: 'asc' },
    take: STRATEGY_LIMITS.dueBatch,
  });
  for (const strategy of due) {
    try {
      await executeStrategy(strategy, now);
    } catch (error) {
      log.error({ strategy: strategy.id, err: (error as Error).message }, 'strategy execution failed');
    }
  }
  return due.length;
}

import type { Caller } from '../core/caller';
import { db } from '../core/db';
import { ownedStrategy } from './load-strategy';
import { STRATEGY_LIMITS } from './strategy-rules';
import { executionView, strategyView } from './strategy-views';

export async function getStrategy(caller: Caller, id: string) {
  const strategy = await ownedStrategy(caller, id);
  const executions = await db().strategyExecution.findMany({
    where: { strategyId: id },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: STRATEGY_LIMITS.executionsShown,
  });
  return { ...strategyView(strategy), recent_executions: executions.map(executionView) };
}

import type { Caller } from '../core/caller';
import { db } from '../core/db';
import { strategyView } from './strategy-views';

export async function listStrategies(caller: Caller) {
  const strategies = await db().strategy.findMany({
    where: { ownerWallet: caller.wallet },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
  return { strategies: strategies.map(strategyView), total: strategies.length };
}

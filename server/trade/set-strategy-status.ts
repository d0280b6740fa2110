import type { Caller } from '../core/caller';
import { db } from '../core/db';
import { ApiError } from '../core/errors';
import { ownedStrategy } from './load-strategy';
import type { StrategyStatus } from './strategy-rules';
import { strategyView } from './strategy-views';

/** active <-> paused; either -> cancelled (final). completed and cancelled accept no change (409). */
const ALLOWED: Record<StrategyStatus, StrategyStatus[]> = {
  active: ['active', 'paused', 'cancelled'],
  paused: ['paused', 'active', 'cancelled'],
  cancelled: [],
  completed: [],
};

export async function setStrategyStatus(caller: Caller, id: string, status: 'active' | 'paused' | 'cancelled') {
  const strategy = await ownedStrategy(caller, id);
  const from = strategy.status as StrategyStatus;
  if (!ALLOWED[from].includes(status)) {
    throw new ApiError('conflict', `A ${from} strategy cannot become ${status}`, { from, to: status });
  }
  const nextRunAt =
    status === 'active'
      ? from === 'active'
        ? strategy.nextRunAt
        : new Date(Date.now() + strategy.intervalSeconds * 1000)
      : null;
  // Conditional on the status read, so two concurrent changes cannot both pass the check.
  const updated = await db().strategy.updateMany({
    where: { id, status: from },
    data: { status, nextRunAt, updatedAt: new Date() },
  });
  if (updated.count === 0) throw new ApiError('conflict', 'The strategy changed meanwhile; read it again', { from });
  return strategyView(await db().strategy.findUniqueOrThrow({ where: { id } }));
}

import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import type { Caller } from '../core/caller';
import { db, lockUntilCommit, withTransaction } from '../core/db';
import type { Strategy, StrategyExecution } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { MICRO_PER_CLAW, microToClaw } from '../core/money';
import { PLATFORM_FEES } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { quote } from './quote';
import { resolveToken } from './tokens';

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

const invalid = (field: string, message: string) =>
  new ApiError('invalid_request', `${field} ${message}`, { fields: { [field]: message } });

export async function createStrategy(caller: Caller, input: CreateStrategyInput) {
  if (input.strategyType !== 'dca' && input.triggerPrice === undefined) {
    throw invalid('trigger_price', `is required for a ${input.strategyType} strategy (token_out per token_in)`);
  }
  if (input.strategyType === 'dca' && input.triggerPrice !== undefined) throw invalid('trigger_price', 'is not used by dca');
  const [tokenIn, tokenOut] = await Promise.all([
    resolveToken(input.tokenIn, 'token_in'),
    resolveToken(input.tokenOut, 'token_out'),
  ]);
  if (tokenIn.routeAddress === tokenOut.routeAddress) throw invalid('token_out', 'must differ from token_in');
  const id = randomUUID();
  const nextRunAt = new Date(Date.now() + input.intervalSeconds * 1000);
  // The count and the creation under one per-wallet lock, so concurrent creates cannot pass the limit.
  await withTransaction(async (tx) => {
    await lockUntilCommit(tx, `strategies:${caller.wallet.toLowerCase()}`);
    const [live] = await tx.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM strategies WHERE owner_wallet = $1 AND status IN ('active', 'paused')`,
      [caller.wallet],
    );
    if (Number(live?.n ?? 0) >= STRATEGY_LIMITS.perWallet)
      throw new ApiError('conflict', `A wallet may have at most ${STRATEGY_LIMITS.perWallet} live strategies`);
    await callerPays(
      {
        caller,
        amount: STRATEGY_CREATION_FEE,
        to: PLATFORM_FEES,
        reason: 'strategy_creation',
        ref: { type: 'strategy', id },
        alongside: (p) => [
          `strategy AS (
          INSERT INTO strategies (id, owner_wallet, owner_agent_id, name, strategy_type, token_in, token_out, amount_in_raw,
            interval_seconds, max_executions, slippage_bps, trigger_price, status, next_run_at)
          SELECT ${p.add(id)}::uuid, ${p.add(caller.wallet)}, ${p.add(caller.agentId)}::uuid, ${p.add(input.name)}, ${p.add(input.strategyType)},
            ${p.add(tokenIn.address)}, ${p.add(tokenOut.address)}, ${p.add(input.amountInRaw)}, ${p.add(input.intervalSeconds)}::int,
            ${p.add(input.maxExecutions ?? null)}::int, ${p.add(input.slippageBps)}::int, ${p.add(input.triggerPrice?.toString() ?? null)},
            'active', ${p.add(nextRunAt)}::timestamptz
          FROM txn RETURNING id)`,
        ],
      },
      tx.sql,
    );
  });
  const created = await db().strategy.findUniqueOrThrow({ where: { id } });
  return { ...strategyView(created), creation_fee_claw: microToClaw(STRATEGY_CREATION_FEE) };
}

/** The caller's strategy; another wallet's is 404. */
export async function ownedStrategy(caller: Caller, id: string): Promise<Strategy> {
  const strategy = await db().strategy.findUnique({ where: { id } });
  if (!strategy || strategy.ownerWallet !== caller.wallet) throw ApiError.notFound('Strategy');
  return strategy;
}

export async function listStrategies(caller: Caller) {
  const strategies = await db().strategy.findMany({
    where: { ownerWallet: caller.wallet },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
  return { strategies: strategies.map(strategyView), total: strategies.length };
}

export async function getStrategy(caller: Caller, id: string) {
  const strategy = await ownedStrategy(caller, id);
  const executions = await db().strategyExecution.findMany({
    where: { strategyId: id },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: STRATEGY_LIMITS.executionsShown,
  });
  return { ...strategyView(strategy), recent_executions: executions.map(executionView) };
}

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
  await db().$transaction([
    db().strategyExecution.create({
      data: { id: randomUUID(), strategyId: strategy.id, status, quote: (stored ?? undefined) as never, error },
    }),
    db().strategy.update({
      where: { id: strategy.id },
      data: { executions, ...(done ? { status: 'completed', nextRunAt: null } : {}), updatedAt: new Date() },
    }),
  ]);
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

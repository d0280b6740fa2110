import { randomUUID } from 'node:crypto';
import type { Caller } from '../core/caller';
import { db, lockUntilCommit, withTransaction } from '../core/db';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { PLATFORM_FEES } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { resolveToken } from './tokens';
import { STRATEGY_CREATION_FEE, STRATEGY_LIMITS, type CreateStrategyInput } from './strategy-rules';
import { strategyView } from './strategy-views';

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

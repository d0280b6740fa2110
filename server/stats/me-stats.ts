import { walletAccount } from '../credits/accounts';
import { recentTransactions } from '../credits/get-credits';
import { balanceOf } from '../credits/ledger';
import { microToClaw } from '../core/money';
import { database, db } from '../core/db';
import type { Caller } from '../core/caller';
import { presentAgentsB } from '../directory/agent-views';

/**
 * GET /api/v1/agents/me/stats. Signals and jobs count what exists: they stay 0 until those
 * features are built.
 */
export async function meStats(caller: Caller) {
  const [balance, transactions, agent, invocations] = await Promise.all([
    balanceOf(walletAccount(caller.wallet), database().sql),
    recentTransactions(caller.wallet, 15),
    caller.agentId ? db().agent.findUnique({ where: { id: caller.agentId } }) : null,
    db().invocation.groupBy({ by: ['status'], where: { callerWallet: caller.wallet }, _count: { _all: true } }),
  ]);
  const made = invocations.reduce((total, row) => total + row._count._all, 0);
  const succeeded = invocations.find((row) => row.status === 'success')?._count._all ?? 0;
  return {
    wallet: caller.wallet,
    balance_claw: microToClaw(balance),
    agent: agent ? (await presentAgentsB([agent], { withMetrics: true, viewer: caller.wallet }))[0]! : null,
    signals: { published: 0, resolved: 0, correct: 0, accuracy_pct: 0, total_staked_claw: 0 },
    jobs: { posted: 0, posted_completed: 0, bids_placed: 0, bids_won: 0, earned_claw: 0 },
    invocations: { made, succeeded },
    transactions,
  };
}

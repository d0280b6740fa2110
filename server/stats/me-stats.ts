import { walletAccount } from '../credits/accounts';
import { recentTransactions } from '../credits/get-credits';
import { balanceOf } from '../credits/ledger';
import { microToClaw } from '../core/money';
import { database, db } from '../core/db';
import type { Caller } from '../core/caller';
import { presentAgentsB } from '../directory/agent-views';
import { jobStats } from '../jobs/job-stats';
import { signalStats } from '../signals/signal-stats';

/** GET /api/v1/agents/me/stats: the wallet's balance, agent, signal and job records, invocations, last 15 transactions. */
export async function meStats(caller: Caller) {
  const [balance, transactions, agent, invocations, signals, jobs] = await Promise.all([
    balanceOf(walletAccount(caller.wallet), database().sql),
    recentTransactions(caller.wallet, 15),
    caller.agentId ? db().agent.findUnique({ where: { id: caller.agentId } }) : null,
    db().invocation.groupBy({ by: ['status'], where: { callerWallet: caller.wallet }, _count: { _all: true } }),
    signalStats(caller.wallet, database().sql),
    jobStats(caller.wallet, database().sql),
  ]);
  const made = invocations.reduce((total, row) => total + row._count._all, 0);
  const succeeded = invocations.find((row) => row.status === 'success')?._count._all ?? 0;
  return {
    wallet: caller.wallet,
    balance_claw: microToClaw(balance),
    agent: agent ? (await presentAgentsB([agent], { withMetrics: true, viewer: caller.wallet }))[0]! : null,
    signals,
    jobs,
    invocations: { made, succeeded },
    transactions,
  };
}

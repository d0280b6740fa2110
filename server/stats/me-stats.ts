import type { Address } from 'viem';
import { walletAccount } from '../credits/accounts';
import { recentTransactionsPart } from '../credits/get-credits';
import { balancePart } from '../credits/ledger';
import { microToClaw } from '../core/money';
import { database } from '../core/db';
import { readTogether, type ReadPart } from '../core/db/read-together';
import type { Caller } from '../core/caller';
import { agentViewB } from '../directory/agent-views';
import { jobStatsPart } from '../jobs/job-stats';
import { signalStatsPart } from '../signals/signal-stats';
import { agentWithMetricsPart } from '../trust/agent-with-metrics';

/** The calls the wallet made through the router and how many succeeded, as a part of a combined read. */
function invocationsPart(wallet: Address): ReadPart<{ made: number; succeeded: number }> {
  return {
    sql: (p) => `SELECT json_build_object('made', count(*), 'succeeded', count(*) FILTER (WHERE status = 'success'))
       FROM invocations WHERE caller_wallet = ${p.add(wallet)}`,
    read: (value) => value as { made: number; succeeded: number },
  };
}

/** GET /api/v1/agents/me/stats: the wallet's balance, agent, signal and job records, invocations, last 15 transactions. */
export async function meStats(caller: Caller) {
  const { balance, agent, signals, jobs, invocations, transactions } = await readTogether(
    {
      balance: balancePart(walletAccount(caller.wallet)),
      agent: agentWithMetricsPart(caller.agentId),
      signals: signalStatsPart(caller.wallet),
      jobs: jobStatsPart(caller.wallet),
      invocations: invocationsPart(caller.wallet),
      transactions: recentTransactionsPart(caller.wallet, 15),
    },
    database().sql,
  );
  return {
    wallet: caller.wallet,
    balance_claw: microToClaw(balance),
    agent: agent ? agentViewB(agent.agent, agent.metrics, { withMetrics: true, viewer: caller.wallet }) : null,
    signals,
    jobs,
    invocations,
    transactions,
  };
}

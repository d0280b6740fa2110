import { walletAccount } from '../credits/accounts';
import { recentTransactionsPart } from '../credits/get-credits';
import { balancePart } from '../credits/ledger';
import { microToClaw } from '../core/money';
import { database } from '../core/db';
import { readTogether } from '../core/db/read-together';
import type { Caller } from '../core/caller';
import type { Agent } from '../core/db/generated/client';
import { sharedCache } from '../core/shared-state';
import { agentViewB } from '../directory/agent-views';
import { jobStatsPart } from '../jobs/job-stats';
import { signalStatsPart } from '../signals/signal-stats';
import { walletInvocationsPart } from './wallet-invocations';
import type { AgentMetrics } from '../trust/agent-metrics';
import { agentWithMetricsPart } from '../trust/agent-with-metrics';

// The caller's agent and its metrics, kept per agent for up to 30 s and dropped the moment a change of an agent, of
// trust or of a skill commits anywhere (change notices; a caller's own write drops it before the write returns): an
// agent polling its stats then reads only its per-wallet parts (balance, signals, jobs, calls, transactions), which
// change with no notice. The agent part was 40% of the statement's database time and most of the row to decode. Its
// propagated score is as stale as the background job leaves it anyway; the account age, counted in whole months, may
// show a month boundary up to 30 s late.
const callerAgents = sharedCache<{ agent: Agent; metrics: AgentMetrics } | null>('stats.me-agent', {
  ttlMs: 30_000,
  maxEntries: 10_000,
  dropOn: ['agent', 'trust', 'skill'],
});

/** GET /api/v1/agents/me/stats: the wallet's balance, agent, signal and job records, invocations, last 15 transactions. */
export async function meStats(caller: Caller) {
  const { sql } = database();
  const agentId = caller.agentId;
  const [{ balance, signals, jobs, invocations, transactions }, agent] = await Promise.all([
    readTogether(
      {
        balance: balancePart(walletAccount(caller.wallet)),
        signals: signalStatsPart(caller.wallet),
        jobs: jobStatsPart(caller.wallet),
        invocations: walletInvocationsPart(caller.wallet),
        transactions: recentTransactionsPart(caller.wallet, 15),
      },
      sql,
    ),
    agentId
      ? callerAgents().get(agentId, () => readTogether({ agent: agentWithMetricsPart(agentId) }, sql).then((r) => r.agent))
      : null,
  ]);
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

import { randomUUID } from 'node:crypto';
import { chargeMemoryStorage } from '../memory/charge-memory-storage';
import { runDueCronPipelines, runEventPipelines } from '../pipelines/triggers';
import { settleStaleInvocations } from '../invoke/settle-stale-invocations';
import { expireJobs } from '../jobs/expire-jobs';
import { expireStaleSignals } from '../signals/expire-signals';
import { finalizeSignalResolutions } from '../signals/resolve-signal';
import { payReferrals } from '../referrals/pay-referrals';
import { refreshActiveTiers, TIER_TTL_MS } from '../agents/tiers';
import { runWebhooks, startWebhookWorker, webhookSettings } from '../webhooks/deliver-webhooks';
import { ROUTER_KEY_MAX_AGE_DAYS, rotateRouterKeyIfOld } from '../invoke/router-keys';
import { database } from '../core/db';
import { InFlight, STOP_WAIT_MS } from '../core/in-flight';
import { log } from '../core/log';
import { runDueStrategies } from '../trade/run-due-strategies';
import { indexSmartMoney } from '../smart-money/indexer';
import { indexErc8004 } from '../erc8004/indexer';
import type { Runtime } from '../core/runtime';
import { markAgedAgentStats, refreshAgentStats } from '../trust/trust-counts';
import { refreshPropagatedTrust } from '../trust/propagated-trust';
import { applyStandingChanges } from '../trust/apply-standing-changes';
import { compactPlatformCounts } from '../stats/platform-stats';
import { compactWalletInvocationCounts } from '../stats/wallet-invocations';
import { REFRESH_AFTER_MS, refreshLeaderboard } from '../leaderboard/refresh-leaderboard';

export interface Job {
  id: string;
  everyMs: number;
  run(runtime: Runtime): Promise<unknown>;
}

// Scheduled work. Each period of a job runs on one instance (claimPeriod); every job is also safe to run
// twice at once (the cron route runs one on demand).
export const JOBS: Job[] = [
  {
    id: 'settle-stale-invocations',
    everyMs: 60_000,
    // Well past the router's own limit, so a call still in flight is never touched.
    run: (runtime) => settleStaleInvocations(runtime.config.INVOKE_TIMEOUT_MS + 60_000),
  },
  {
    // Once per UTC day per agent (ledger idempotency key), however often it runs; hourly purges expired keys.
    id: 'memory-storage-charges',
    everyMs: 60 * 60_000,
    run: () => chargeMemoryStorage(),
  },
  {
    // Cron pipelines fire within 15 s of their minute; each tick is claimed once across instances.
    id: 'pipeline-cron',
    everyMs: 15_000,
    run: () => runDueCronPipelines(),
  },
  {
    id: 'pipeline-events',
    everyMs: 5_000,
    run: () => runEventPipelines(),
  },
  {
    // Unaccepted jobs past expires_at: status expired, bounty back to the poster.
    id: 'expire-jobs',
    everyMs: 60_000,
    run: () => expireJobs(),
  },
  {
    // A publisher's proposed signal outcome, undisputed through its window: paid as proposed.
    id: 'finalize-signal-resolutions',
    everyMs: 60_000,
    run: () => finalizeSignalResolutions(),
  },
  {
    // Signals left unresolved for 90 days: expired, every stake refunded.
    id: 'expire-stale-signals',
    everyMs: 3_600_000,
    run: () => expireStaleSignals(),
  },
  {
    // Referral earnings accrued before this week's Monday 00:00 UTC are paid (weekly, checked hourly).
    id: 'pay-referrals',
    everyMs: 3_600_000,
    run: () => payReferrals(),
  },
  {
    // Tiers follow platform-token holdings: re-read the wallets of agents in use (issue 11).
    id: 'refresh-tiers',
    everyMs: TIER_TTL_MS * 2,
    run: () => refreshActiveTiers(),
  },
  {
    // Webhook fan-out and due deliveries (retries). Instances run it at once safely: the fan-out
    // holds the cursor row, deliveries are claimed with SKIP LOCKED. The in-process worker below
    // also runs it on every committed event; this is the fallback and the cron route's entry.
    id: 'webhooks',
    everyMs: 10_000,
    run: (runtime) => runWebhooks(runtime.database, webhookSettings(runtime)),
  },
  {
    id: 'rotate-router-key',
    everyMs: 3_600_000,
    // The router's signing key is replaced when it is older than ROUTER_KEY_MAX_AGE_DAYS.
    run: () => rotateRouterKeyIfOld(database().sql, ROUTER_KEY_MAX_AGE_DAYS),
  },
  {
    // Non-custodial strategies: a fresh quote + unsigned swap per due strategy (docs/trade.md).
    id: 'trade-strategies',
    everyMs: 15_000,
    run: () => runDueStrategies(),
  },
  {
    // Swap logs of tracked wallets into smart-money events and alerts (docs/smart-money.md).
    id: 'smart-money-indexer',
    everyMs: 10_000,
    run: () => indexSmartMoney(),
  },
  {
    // ERC-8004: Transfers of linked identities unlink them; NewFeedback/FeedbackRevoked into erc8004_feedback (docs/erc8004.md).
    id: 'erc8004-indexer',
    everyMs: 15_000,
    run: () => indexErc8004(),
  },
  {
    // Maintained trust counts (agent_stats) of agents whose counts changed. Until it runs, readers
    // count those agents live, so this bounds staleness only of orders and filters past 1,000 of them.
    id: 'refresh-agent-stats',
    everyMs: 2_000,
    run: () => refreshAgentStats(database().sql),
  },
  {
    // An endorser that gained or lost standing (a tier, CLAW earned, a paid call): re-derive the edges into
    // the agents it endorsed and recount them, so its endorsements count (or stop counting) within seconds.
    id: 'refresh-endorser-standing',
    everyMs: 5_000,
    run: () => applyStandingChanges(),
  },
  {
    // Account-age points move once a month per agent: mark the rows whose month has turned.
    id: 'age-agent-stats',
    everyMs: 3_600_000,
    run: () => markAgedAgentStats(database().sql),
  },
  {
    // The propagated score (PageRank over the trust graph), when its inputs changed: at most a minute stale.
    id: 'propagate-trust',
    everyMs: 60_000,
    run: () => refreshPropagatedTrust(database().sql),
  },
  {
    // The leaderboard's table, recomputed once it is 30 s old: checked every 10 s, it stays well under the
    // 60 s that readers accept, so no reader waits for the aggregate (server/leaderboard/refresh-leaderboard.ts).
    id: 'refresh-leaderboard',
    everyMs: 10_000,
    run: () => refreshLeaderboard(REFRESH_AFTER_MS),
  },
  {
    // /api/stats sums the delta rows: folding them often keeps that sum a few thousand rows at most.
    id: 'compact-platform-counts',
    everyMs: 10_000,
    run: () => compactPlatformCounts(database().sql),
  },
  {
    // GET /api/v1/agents/me/stats sums a wallet's delta rows: one per statement of the last 10 s that touched it.
    id: 'compact-wallet-invocation-counts',
    everyMs: 10_000,
    run: () => compactWalletInvocationCounts(database().sql),
  },
];

/** Claimed periods are kept this long (for operators and the multi-instance test), then deleted. */
const CLAIMS_KEPT_MS = 24 * 3_600_000;

/**
 * Claims the job's current period (floor(now / everyMs)) for this instance: true when no instance
 * claimed it before, so each job runs once per period however many instances tick. A claimant that
 * dies mid-run costs that period only; the next period is claimed afresh.
 */
export async function claimPeriod(job: Job, instance: string, now = Date.now()): Promise<boolean> {
  const rows = await database().sql.query(
    `INSERT INTO scheduled_runs (job_id, period, instance) VALUES ($1, $2, $3)
     ON CONFLICT (job_id, period) DO NOTHING RETURNING job_id`,
    [job.id, Math.floor(now / job.everyMs), instance],
  );
  return rows.length > 0;
}

const pruneClaims: Job = {
  id: 'prune-scheduled-runs',
  everyMs: 3_600_000,
  run: () =>
    database().sql.query(`DELETE FROM scheduled_runs WHERE started_at < now() - make_interval(secs => $1)`, [
      CLAIMS_KEPT_MS / 1000,
    ]),
};

/**
 * Runs every job once now and then on its interval, each period on one instance; returns a function that stops
 * them and waits (STOP_WAIT_MS at most) for the runs in flight, so the runtime closes its database after them.
 */
export function startJobs(runtime: Runtime, jobs: Job[] = [...JOBS, pruneClaims]): () => Promise<void> {
  const instance = randomUUID();
  const inFlight = new InFlight();
  const timers = jobs.map((job) => {
    const tick = () =>
      inFlight.add(
        claimPeriod(job, instance)
          .then(async (claimed) => {
            if (!claimed) return;
            await job.run(runtime);
            runtime.state.set('scheduler.last-run', new Date());
          })
          .catch((error) => log.error({ job: job.id, err: error }, 'job failed')),
      );
    void tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => {
    timers.forEach(clearInterval);
    return inFlight.settled(STOP_WAIT_MS);
  };
}

/**
 * Starts the scheduled work once per runtime, whichever door starts first (server.ts, or Next.js's
 * instrumentation under `next start`); it stops when the runtime closes.
 */
export function ensureJobsStarted(runtime: Runtime): void {
  if (runtime.state.has('scheduler.started')) return;
  runtime.state.set('scheduler.started', true);
  const stopJobs = startJobs(runtime);
  const stopWebhooks = startWebhookWorker(runtime);
  // One closer: both stop at once and their runs in flight are waited for together (one STOP_WAIT_MS, not two).
  runtime.onClose(async () => {
    await Promise.all([stopJobs(), stopWebhooks()]);
  });
}

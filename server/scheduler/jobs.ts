import { chargeMemoryStorage } from '../memory/memory';
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
import { log } from '../core/log';
import { runDueStrategies } from '../trade/strategies';
import { indexSmartMoney } from '../smart-money/indexer';
import type { Runtime } from '../core/runtime';
import { markAgedAgentStats, refreshAgentStats } from '../trust/trust-counts';
import { refreshPropagatedTrust } from '../trust/propagated-trust';
import { applyStandingChanges } from '../trust/apply-standing-changes';
import { compactPlatformCounts } from '../stats/platform-stats';

export interface Job {
  id: string;
  everyMs: number;
  run(runtime: Runtime): Promise<unknown>;
}

// Scheduled work. Every job is safe to run on several instances at once.
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
    // The propagated score (PageRank over the trust graph), when agents or trust changed: at most a minute stale.
    id: 'propagate-trust',
    everyMs: 60_000,
    run: () => refreshPropagatedTrust(database().sql),
  },
  {
    // /api/stats sums the delta rows: folding them often keeps that sum a few thousand rows at most.
    id: 'compact-platform-counts',
    everyMs: 10_000,
    run: () => compactPlatformCounts(database().sql),
  },
];

/** Runs every job once now and then on its interval; returns a function that stops them. */
export function startJobs(runtime: Runtime, jobs: Job[] = JOBS): () => void {
  const timers = jobs.map((job) => {
    const tick = () =>
      job
        .run(runtime)
        .then(() => runtime.state.set('scheduler.last-run', new Date()))
        .catch((error) => log.error({ job: job.id, err: error }, 'job failed'));
    void tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}

/**
 * Starts the scheduled work once per runtime, whichever door starts first (server.ts, or Next.js's
 * instrumentation under `next start`); it stops when the runtime closes.
 */
export function ensureJobsStarted(runtime: Runtime): void {
  if (runtime.state.has('scheduler.started')) return;
  runtime.state.set('scheduler.started', true);
  runtime.onClose(startJobs(runtime));
  runtime.onClose(startWebhookWorker(runtime));
}

import { chargeMemoryStorage } from '../memory/memory';
import { runDueCronPipelines, runEventPipelines } from '../pipelines/triggers';
import { settleStaleInvocations } from '../invoke/settle-stale-invocations';
import { refreshActiveTiers, TIER_TTL_MS } from '../agents/tiers';
import { log } from '../core/log';
import { runDueStrategies } from '../trade/strategies';
import { indexSmartMoney } from '../smart-money/indexer';
import type { Runtime } from '../core/runtime';

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
    // Tiers follow platform-token holdings: re-read the wallets of agents in use (issue 11).
    id: 'refresh-tiers',
    everyMs: TIER_TTL_MS * 2,
    run: () => refreshActiveTiers(),
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
}

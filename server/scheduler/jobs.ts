import { settleStaleInvocations } from '../invoke/settle-stale-invocations';
import { ROUTER_KEY_MAX_AGE_DAYS, rotateRouterKeyIfOld } from '../invoke/router-keys';
import { database } from '../core/db';
import { log } from '../core/log';
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
    id: 'rotate-router-key',
    everyMs: 3_600_000,
    // The router's signing key is replaced when it is older than ROUTER_KEY_MAX_AGE_DAYS.
    run: () => rotateRouterKeyIfOld(database().sql, ROUTER_KEY_MAX_AGE_DAYS),
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

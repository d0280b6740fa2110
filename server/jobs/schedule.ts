import { settleStaleInvocations } from '../invoke/settle-stale-invocations';
import { log } from '../log';
import type { Runtime } from '../runtime';

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
];

/** Runs every job once now and then on its interval; returns a function that stops them. */
export function startJobs(runtime: Runtime, jobs: Job[] = JOBS): () => void {
  const timers = jobs.map((job) => {
    const tick = () => job.run(runtime).catch((error) => log.error({ job: job.id, err: error }, 'job failed'));
    void tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}

/**
 * When the cluster primary starts another worker after one exited: at once after a worker that ran
 * a while (a crash under load), with a growing delay after workers that die as they start (a missing
 * build, a database that refuses every connection), and never again after `giveUpAfter` such deaths
 * in a row: then the primary stops, so a supervisor sees the failure instead of a process that forks
 * a dying worker every second forever.
 */
export interface WorkerRestartPolicy {
  /** A worker that lived at least this long was healthy: its exit starts a new streak. */
  healthyAfterMs: number;
  /** The delay before restarting after the first early death; it doubles with each one after. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Early deaths in a row after which the primary gives up. */
  giveUpAfter: number;
}

export const WORKER_RESTARTS: WorkerRestartPolicy = {
  healthyAfterMs: 30_000,
  firstDelayMs: 1000,
  maxDelayMs: 30_000,
  giveUpAfter: 8,
};

export type RestartDecision = { restartInMs: number } | { giveUp: true; earlyDeaths: number };

/** Decides, one exit at a time, what the primary does; `livedMs` is how long the exited worker ran. */
export function workerRestarts(policy: WorkerRestartPolicy = WORKER_RESTARTS) {
  let earlyDeaths = 0;
  return (livedMs: number): RestartDecision => {
    if (livedMs >= policy.healthyAfterMs) {
      earlyDeaths = 0;
      return { restartInMs: 0 };
    }
    earlyDeaths++;
    if (earlyDeaths >= policy.giveUpAfter) return { giveUp: true, earlyDeaths };
    return { restartInMs: Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (earlyDeaths - 1)) };
  };
}

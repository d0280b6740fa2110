import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { sharedState } from '../core/shared-state';

// The bound on pipeline runs started by requests (POST /pipelines/{id}/run) on one instance (issue 23,
// backpressure): a run holds its request for up to 120 s while its steps call agents, so a burst of
// triggers must not become an unbounded number of runs in memory. At most PIPELINE_MAX_CONCURRENT_RUNS
// at once (503 with Retry-After above) and PIPELINE_MAX_RUNS_PER_CALLER of one wallet (429 above).
// Cron and event triggers need no slot: the scheduler runs them one at a time (triggers.ts).

const RETRY_AFTER_SECONDS = '2';

const running = sharedState('pipelines.running', () => ({ total: 0, byWallet: new Map<string, number>() }));

/** Runs `work` in one of the instance's run slots, or refuses (429/503 with Retry-After) when none is free. */
export async function withRunSlot<T>(wallet: string, work: () => Promise<T>): Promise<T> {
  const { config } = currentRuntime();
  const state = running();
  const key = wallet.toLowerCase();
  const mine = state.byWallet.get(key) ?? 0;
  if (mine >= config.PIPELINE_MAX_RUNS_PER_CALLER) {
    throw new ApiError(
      'rate_limited',
      `At most ${config.PIPELINE_MAX_RUNS_PER_CALLER} pipeline runs of one caller at once; retry when one has finished`,
      { limit: config.PIPELINE_MAX_RUNS_PER_CALLER },
      { 'Retry-After': RETRY_AFTER_SECONDS },
    );
  }
  if (state.total >= config.PIPELINE_MAX_CONCURRENT_RUNS) {
    throw new ApiError(
      'service_unavailable',
      'This instance runs as many pipelines as it allows; retry shortly',
      { limit: config.PIPELINE_MAX_CONCURRENT_RUNS },
      { 'Retry-After': RETRY_AFTER_SECONDS },
    );
  }
  state.total++;
  state.byWallet.set(key, mine + 1);
  try {
    return await work();
  } finally {
    state.total--;
    const left = (state.byWallet.get(key) ?? 1) - 1;
    if (left > 0) state.byWallet.set(key, left);
    else state.byWallet.delete(key);
  }
}

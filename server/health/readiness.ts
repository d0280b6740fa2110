import { sharedState } from '../core/shared-state';
import { checkDatabase } from './check-health';

export interface ReadinessReport {
  ready: boolean;
  reason: 'draining' | 'database' | null;
  pid: number;
  checked_at: string;
}

// Per process: a worker that is shutting down stops taking new work while the others go on.
const draining = sharedState('health.draining', () => ({ since: null as Date | null }));
// The database check runs at most once a second however many probes arrive (as for health).
const MAX_AGE_MS = 1000;
const latest = sharedState<{ current: { at: number; ok: Promise<boolean> } | null }>('health.ready', () => ({
  current: null,
}));

/** From now on this process answers not ready (SIGTERM: the load balancer stops sending it requests). */
export function markDraining(): void {
  draining().since ??= new Date();
}

/**
 * Whether this process should get traffic: not draining and its database answers. Before the
 * migrations have run the process does not listen at all, so a probe then gets no answer.
 */
export async function checkReady(): Promise<ReadinessReport> {
  const report = (reason: ReadinessReport['reason']): ReadinessReport => ({
    ready: reason === null,
    reason,
    pid: process.pid,
    checked_at: new Date().toISOString(),
  });
  if (draining().since) return report('draining');
  const now = Date.now();
  const slot = latest();
  if (!slot.current || now - slot.current.at > MAX_AGE_MS) {
    slot.current = { at: now, ok: checkDatabase().then((check) => check.ok) };
  }
  return report((await slot.current.ok) ? null : 'database');
}

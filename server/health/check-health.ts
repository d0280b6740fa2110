import { database } from '../core/db';
import { currentRuntime } from '../core/runtime';
import { sharedState } from '../core/shared-state';

export interface HealthCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  issues_count: number;
  checks: HealthCheck[];
  checked_at: string;
}

// Self-checks run at most once a second however many probes arrive; a load balancer polling
// health must not turn into a database load.
const MAX_AGE_MS = 1000;
const latest = sharedState<{ current: { at: number; report: Promise<HealthReport> } | null }>('health.latest', () => ({
  current: null,
}));

async function checkDatabase(): Promise<HealthCheck> {
  try {
    await database().sql.query('SELECT 1');
    return { name: 'database', ok: true };
  } catch (error) {
    return { name: 'database', ok: false, detail: (error as Error).message };
  }
}

/** When this process runs the scheduled work (whichever door started it): when a job last finished. */
function checkScheduler(): HealthCheck[] {
  const { state } = currentRuntime();
  if (!state.has('scheduler.started')) return [];
  const lastRun = state.get('scheduler.last-run') as Date | undefined;
  return [{ name: 'scheduler', ok: true, detail: `running; last job finished ${lastRun?.toISOString() ?? 'not yet'}` }];
}

async function runChecks(): Promise<HealthReport> {
  const checks = [...(await Promise.all([checkDatabase()])), ...checkScheduler()];
  const issues = checks.filter((check) => !check.ok).length;
  return { status: issues === 0 ? 'ok' : 'degraded', issues_count: issues, checks, checked_at: new Date().toISOString() };
}

export function checkHealth(): Promise<HealthReport> {
  const now = Date.now();
  const slot = latest();
  if (!slot.current || now - slot.current.at > MAX_AGE_MS) slot.current = { at: now, report: runChecks() };
  return slot.current.report;
}

import { database } from '../db';

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
let cached: { at: number; report: Promise<HealthReport> } | null = null;

async function checkDatabase(): Promise<HealthCheck> {
  try {
    await database().sql.query('SELECT 1');
    return { name: 'database', ok: true };
  } catch (error) {
    return { name: 'database', ok: false, detail: (error as Error).message };
  }
}

async function runChecks(): Promise<HealthReport> {
  const checks = await Promise.all([checkDatabase()]);
  const issues = checks.filter((check) => !check.ok).length;
  return { status: issues === 0 ? 'ok' : 'degraded', issues_count: issues, checks, checked_at: new Date().toISOString() };
}

export function checkHealth(): Promise<HealthReport> {
  const now = Date.now();
  if (!cached || now - cached.at > MAX_AGE_MS) cached = { at: now, report: runChecks() };
  return cached.report;
}

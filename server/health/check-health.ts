import { chainEnabled, chainIfEnabled, recentRpcFailures } from '../chain/client';
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
// health must not turn into a database load. A probe does not wait behind a running check when the last
// report is younger than STALE_MS: it gets that report while the next one is made (each check has a
// limit: DATABASE_CHECK_MS, the chain's 3 s), so a busy database queue or pool cannot make health slow,
// and a database that does not answer in time is reported as failing within a few seconds.
const MAX_AGE_MS = 1000;
const STALE_MS = 5000;
const DATABASE_CHECK_MS = 2000;
interface HealthSlot {
  /** The last finished report and when its checks started. */
  done: { at: number; report: HealthReport } | null;
  /** The checks running now. */
  running: Promise<HealthReport> | null;
}
const latest = sharedState<HealthSlot>('health.latest', () => ({ done: null, running: null }));

export async function checkDatabase(): Promise<HealthCheck> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_CHECK_MS / 1000} s`)), DATABASE_CHECK_MS);
    timer.unref();
  });
  try {
    await Promise.race([database().sql.query('SELECT 1'), late]);
    return { name: 'database', ok: true };
  } catch (error) {
    return { name: 'database', ok: false, detail: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** The read replica (DATABASE_REPLICA_URL), when configured: not ok while public reads fall back to the primary. */
function checkReplica(): HealthCheck[] {
  const replica = database().replica;
  if (!replica) return [];
  const status = replica.status();
  return [{ name: 'replica', ok: status.usable, detail: status.detail }];
}

/** When this process runs the scheduled work (whichever door started it): when a job last finished. */
function checkScheduler(): HealthCheck[] {
  const { state } = currentRuntime();
  if (!state.has('scheduler.started')) return [];
  const lastRun = state.get('scheduler.last-run') as Date | undefined;
  return [{ name: 'scheduler', ok: true, detail: `running; last job finished ${lastRun?.toISOString() ?? 'not yet'}` }];
}

/**
 * The chain: reachable, on CHAIN_ID, and (on the bundled devnet) with the platform token deployed.
 * Absent when the instance runs without a chain (tests).
 */
async function checkChain(): Promise<HealthCheck[]> {
  if (!chainEnabled()) return [];
  try {
    const context = await chainIfEnabled();
    if (!context) return [];
    const { client, addresses } = context;
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 3 s')), 3000).unref());
    const probe = Promise.all([
      client.getChainId(),
      client.getBlockNumber({ cacheTime: 0 }),
      addresses.platformToken ? client.getCode({ address: addresses.platformToken }) : Promise.resolve(undefined),
    ]);
    const [chainId, block, tokenCode] = await Promise.race([probe, timeout]);
    const where = `${context.source === 'devnet' ? 'bundled devnet' : 'configured node'}, chain ${chainId}, block ${block}`;
    if (chainId !== context.chainId) return [{ name: 'chain', ok: false, detail: `${where}: CHAIN_ID is ${context.chainId}` }];
    if (!addresses.platformToken) return [{ name: 'chain', ok: false, detail: `${where}: PLATFORM_TOKEN_ADDRESS is not set` }];
    if (!tokenCode || tokenCode === '0x') {
      return [{ name: 'chain', ok: false, detail: `${where}: no contract at the platform token ${addresses.platformToken}` }];
    }
    const recent = recentRpcFailures();
    if (recent.count > 0) {
      return [
        { name: 'chain', ok: false, detail: `${where}; ${recent.count} RPC failure(s) in the last minute, last: ${recent.last}` },
      ];
    }
    return [{ name: 'chain', ok: true, detail: where }];
  } catch (error) {
    const reason = (error as { details?: { reason?: string } }).details?.reason ?? (error as Error).message.split('\n')[0];
    return [{ name: 'chain', ok: false, detail: `unavailable: ${reason}` }];
  }
}

/**
 * Redis (when REDIS_URL is set): answers PING within a second and nothing fell back to the
 * database in the last few seconds. While it fails, rate limits and stream leases run on the database.
 */
async function checkRedis(): Promise<HealthCheck[]> {
  const { redis, redisFallbacks } = currentRuntime();
  if (!redis || !redisFallbacks) return [];
  const fallingBack = 'rate limits and stream leases use the database meanwhile';
  if (redis.status !== 'ready') return [{ name: 'redis', ok: false, detail: `unavailable (${redis.status}); ${fallingBack}` }];
  try {
    await redis.ping();
  } catch (error) {
    return [{ name: 'redis', ok: false, detail: `unavailable: ${(error as Error).message}; ${fallingBack}` }];
  }
  const recent = redisFallbacks.recent();
  if (recent.count > 0) {
    return [{ name: 'redis', ok: false, detail: `${recent.count} operation(s) fell back recently, last: ${recent.last}` }];
  }
  return [{ name: 'redis', ok: true }];
}

async function runChecks(): Promise<HealthReport> {
  const [database, chain, redis] = await Promise.all([checkDatabase(), checkChain(), checkRedis()]);
  const checks = [database, ...checkReplica(), ...chain, ...redis, ...checkScheduler()];
  const issues = checks.filter((check) => !check.ok).length;
  return { status: issues === 0 ? 'ok' : 'degraded', issues_count: issues, checks, checked_at: new Date().toISOString() };
}

export function checkHealth(): Promise<HealthReport> {
  const now = Date.now();
  const slot = latest();
  if (slot.done && now - slot.done.at <= MAX_AGE_MS) return Promise.resolve(slot.done.report);
  if (!slot.running) {
    const running = runChecks().then((report) => {
      slot.done = { at: now, report };
      return report;
    });
    slot.running = running;
    void running
      .finally(() => {
        if (slot.running === running) slot.running = null;
      })
      .catch(() => {});
  }
  return slot.done && now - slot.done.at <= STALE_MS ? Promise.resolve(slot.done.report) : slot.running;
}

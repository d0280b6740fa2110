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
// health must not turn into a database load.
const MAX_AGE_MS = 1000;
const latest = sharedState<{ current: { at: number; report: Promise<HealthReport> } | null }>('health.latest', () => ({
  current: null,
}));

export async function checkDatabase(): Promise<HealthCheck> {
  try {
    await database().sql.query('SELECT 1');
    return { name: 'database', ok: true };
  } catch (error) {
    return { name: 'database', ok: false, detail: (error as Error).message };
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
  if (!slot.current || now - slot.current.at > MAX_AGE_MS) slot.current = { at: now, report: runChecks() };
  return slot.current.report;
}

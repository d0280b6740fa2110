import type { Redis } from 'ioredis';
import { log } from './log';

// Redis is an optimisation, never a dependency (docs/reliability.md, Redis gone): what it holds
// (rate-limit counters, stream leases) has a database twin, and while Redis is down or failing each
// operation runs on the twin instead. The client fails fast (no offline queue, a 2.5 s command
// timeout) so a dead Redis costs a request nothing, and reconnects by itself in the background.

/** How the runtime's Redis client is configured: fail fast, reconnect forever. */
export const REDIS_CLIENT_OPTIONS = {
  lazyConnect: false,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 2500,
  connectTimeout: 2000,
  retryStrategy: (times: number) => Math.min(times * 100, 1000),
} as const;

/** Redis operations that fell back in this window make health report `redis` as failing. */
export const REDIS_FAILURE_WINDOW_MS = 5_000;

export interface RedisFallbacks {
  /** Runs `primary` on Redis when it is connected, else (or when it fails) `fallback`. */
  run<T>(what: string, primary: () => Promise<T>, fallback: () => Promise<T>): Promise<T>;
  /** Whether Redis answers commands now (connected and not failing). */
  usable(): boolean;
  /** Fallbacks in the last REDIS_FAILURE_WINDOW_MS and the latest reason (health). */
  recent(now?: number): { count: number; last: string };
  /** Records a failure of an operation that has no fallback (a lease release: it lapses by itself). */
  failed(what: string, error: unknown): void;
}

export function redisFallbacks(redis: Redis): RedisFallbacks {
  let times: number[] = [];
  let last = '';
  let loggedAt = 0;
  const failed = (what: string, error: unknown) => {
    const now = Date.now();
    times.push(now);
    if (times.length > 1000) times = times.slice(-1000);
    last = `${what}: ${(error as Error)?.message ?? String(error)}`;
    // One line a second at most: a dead Redis under load must not flood the log.
    if (now - loggedAt > 1000) {
      loggedAt = now;
      log.warn({ err: last, status: redis.status }, 'redis unavailable; using the database');
    }
  };
  return {
    usable: () => redis.status === 'ready',
    async run(what, primary, fallback) {
      if (redis.status !== 'ready') {
        failed(what, new Error(`not connected (${redis.status})`));
        return fallback();
      }
      try {
        return await primary();
      } catch (error) {
        failed(what, error);
        return fallback();
      }
    },
    recent(now = Date.now()) {
      times = times.filter((at) => now - at < REDIS_FAILURE_WINDOW_MS);
      return { count: times.length, last };
    },
    failed,
  };
}

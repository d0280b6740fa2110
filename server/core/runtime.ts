import { Redis } from 'ioredis';
import { ChangeBus, parseChangeNotice } from './changes';
import { loadConfig, type Config } from './config';
import { useDatabase } from './db';
import { openDatabase, type Database } from './db/open';
import { log } from './log';
import { fallbackCounterStore, RateLimiter, redisCounterStore, sqlCounterStore } from './rate-limit';
import { REDIS_CLIENT_OPTIONS, redisFallbacks, type RedisFallbacks } from './redis-fallback';

/**
 * Everything a running instance holds: configuration, database, rate limiter, optional Redis, the
 * change bus, and every cache or other in-memory state (by name, see shared-state.ts).
 */
export interface Runtime {
  config: Config;
  database: Database;
  limiter: RateLimiter;
  redis: Redis | null;
  /** Runs a Redis operation, or its database twin while Redis is down (null without REDIS_URL). */
  redisFallbacks: RedisFallbacks | null;
  changes: ChangeBus;
  state: Map<string, unknown>;
  /** Runs `fn` when the runtime closes (timers, connections, child processes). */
  onClose(fn: () => unknown): void;
  close(): Promise<void>;
}

// Kept on globalThis: under `npm start` the Next.js bundle holds a second copy of every server
// module, and both copies must share one runtime (database, caches, listeners).
const slot = globalThis as typeof globalThis & {
  __vouchsafeRuntime?: { current: Runtime | null; starting: Promise<Runtime> | null };
};
const state = (slot.__vouchsafeRuntime ??= { current: null, starting: null });

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Use this database instead of opening one from the configuration (tests). */
  database?: Database;
}

export async function startRuntime(options: StartOptions = {}): Promise<Runtime> {
  const config = loadConfig(options.env ?? process.env);
  log.level = config.LOG_LEVEL;
  const database = options.database ?? (await openDatabase(config));
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { ...REDIS_CLIENT_OPTIONS, keyPrefix: config.REDIS_KEY_PREFIX })
    : null;
  // Connection errors repeat on every reconnect attempt while Redis is down; redisFallbacks logs
  // what falls back (once a second at most).
  redis?.on('error', () => {});
  // Start on Redis when it answers within 2 s (requests before it is ready count in the database).
  if (redis) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  const fallbacks = redis ? redisFallbacks(redis) : null;
  const sqlCounters = sqlCounterStore(database.sql);
  const limiter = new RateLimiter(
    redis && fallbacks ? fallbackCounterStore(redisCounterStore(redis), sqlCounters, fallbacks) : sqlCounters,
    config.rateLimits,
  );
  const changes = new ChangeBus();
  const stopNotices = database.onNotice((payload) => {
    if (payload === null) return changes.publishAll();
    const notice = parseChangeNotice(payload);
    if (notice) changes.publish(notice);
  });
  useDatabase(database);
  const closers: (() => unknown)[] = [];
  const runtime: Runtime = {
    config,
    database,
    limiter,
    redis,
    redisFallbacks: fallbacks,
    changes,
    state: new Map(),
    onClose: (fn) => void closers.push(fn),
    async close() {
      // Every closer runs, whatever an earlier one threw; the first failure is thrown once all ran. They run
      // while the runtime and its database are still current, so work they wait for (a job's run) can finish.
      let failure: unknown;
      for (const fn of closers.reverse()) {
        try {
          await fn();
        } catch (error) {
          failure ??= error;
        }
      }
      if (state.current === runtime) {
        state.current = null;
        state.starting = null;
        useDatabase(null);
      }
      stopNotices();
      redis?.disconnect();
      await database.close();
      if (failure !== undefined) throw failure;
    },
  };
  state.current = runtime;
  return runtime;
}

/** The running instance, started on first use (the Next.js catch-all route starts it lazily). */
export function runtime(): Promise<Runtime> {
  if (state.current) return Promise.resolve(state.current);
  state.starting ??= startRuntime().catch((error) => {
    state.starting = null;
    throw error;
  });
  return state.starting;
}

/** The running instance, or null before one started (code that also runs outside a server). */
export function runningRuntime(): Runtime | null {
  return state.current;
}

/** The running instance; only valid after startRuntime()/runtime() resolved. */
export function currentRuntime(): Runtime {
  if (!state.current) throw new Error('runtime not started');
  return state.current;
}

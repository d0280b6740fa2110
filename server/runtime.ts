import { Redis } from 'ioredis';
import { loadConfig, type Config } from './config';
import { resetLedgerCache } from './credits/ledger';
import { useDatabase } from './db';
import { openDatabase, type Database } from './db/open';
import { RateLimiter, redisCounterStore, sqlCounterStore } from './http/rate-limit';
import { log } from './log';

/** Everything a running instance holds: configuration, database, rate limiter, optional Redis. */
export interface Runtime {
  config: Config;
  database: Database;
  limiter: RateLimiter;
  redis: Redis | null;
  close(): Promise<void>;
}

// Kept on globalThis for the same reason as the database (see db.ts).
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
  const database = options.database ?? (await openDatabase(config));
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 }) : null;
  redis?.on('error', (error) => log.warn({ err: error.message }, 'redis error'));
  const limiter = new RateLimiter(redis ? redisCounterStore(redis) : sqlCounterStore(database.sql), config.rateLimits);
  useDatabase(database);
  resetLedgerCache();
  const runtime: Runtime = {
    config,
    database,
    limiter,
    redis,
    async close() {
      if (state.current === runtime) {
        state.current = null;
        state.starting = null;
        useDatabase(null);
      }
      redis?.disconnect();
      await database.close();
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

/** The running instance; only valid after startRuntime()/runtime() resolved. */
export function currentRuntime(): Runtime {
  if (!state.current) throw new Error('runtime not started');
  return state.current;
}

import type { Redis } from 'ioredis';
import type { RateLimitOverride } from '../config';
import type { SqlRunner } from '../db/sql-runner';
import { ApiError } from './errors';
import { RATE_LIMIT_POLICIES, type RateLimitPolicy, type RateLimitPolicyName } from './rate-limit-policies';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

/** Fixed-window counters: add one and return the count and the window's end. */
export interface CounterStore {
  increment(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
}

export function sqlCounterStore(sql: SqlRunner): CounterStore {
  let calls = 0;
  return {
    async increment(key, windowMs) {
      // One atomic statement: a new window starts when the old one has ended.
      const [row] = await sql.query<{ count: number; window_ends: Date | string }>(
        `INSERT INTO rate_limit_counters (key, count, window_ends)
         VALUES ($1, 1, now() + ($2::int * interval '1 millisecond'))
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limit_counters.window_ends <= now() THEN 1 ELSE rate_limit_counters.count + 1 END,
           window_ends = CASE WHEN rate_limit_counters.window_ends <= now() THEN excluded.window_ends ELSE rate_limit_counters.window_ends END
         RETURNING count, window_ends`,
        [key, windowMs],
      );
      // Expired counters are swept now and then rather than on every request.
      if (++calls % 500 === 0) await sql.query('DELETE FROM rate_limit_counters WHERE window_ends < now()');
      return { count: Number(row!.count), resetAt: new Date(row!.window_ends).getTime() };
    },
  };
}

export function redisCounterStore(redis: Redis): CounterStore {
  return {
    async increment(key, windowMs) {
      const redisKey = `rl:${key}`;
      const result = await redis.multi().incr(redisKey).pexpire(redisKey, windowMs, 'NX').pttl(redisKey).exec();
      const count = Number(result?.[0]?.[1] ?? 1);
      const ttl = Number(result?.[2]?.[1] ?? windowMs);
      return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
    },
  };
}

export class RateLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly overrides: Record<string, RateLimitOverride> = {},
  ) {}

  policy(name: RateLimitPolicyName): RateLimitPolicy {
    const base = RATE_LIMIT_POLICIES[name];
    const override = this.overrides[name];
    return override ? { ...base, ...override } : base;
  }

  /** Counts one hit against `name` for `subject` (an IP or a caller id). */
  async hit(name: RateLimitPolicyName, subject: string): Promise<RateLimitResult> {
    const policy = this.policy(name);
    const { count, resetAt } = await this.store.increment(`${name}:${subject}`, policy.windowMs);
    return {
      allowed: count <= policy.limit,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - count),
      resetSeconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
    };
  }

  /** Counts a hit and throws 429 when over the limit. */
  async enforce(name: RateLimitPolicyName, subject: string): Promise<RateLimitResult> {
    const result = await this.hit(name, subject);
    if (!result.allowed) throw rateLimitedError(name, result);
    return result;
  }
}

export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  return {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': String(result.resetSeconds),
  };
}

export function rateLimitedError(name: string, result: RateLimitResult): ApiError {
  return new ApiError(
    'rate_limited',
    `Rate limit exceeded; retry in ${result.resetSeconds} s`,
    { policy: name, limit: result.limit, retry_after: result.resetSeconds },
    { 'Retry-After': String(result.resetSeconds), ...rateLimitHeaders(result) },
  );
}

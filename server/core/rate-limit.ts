import type { Redis } from 'ioredis';
import type { RateLimitOverride } from './config';
import { ASYNC_COMMIT } from './db/async-commit';
import type { SqlRunner } from './db/sql-runner';
import { ApiError } from './errors';
import type { RedisFallbacks } from './redis-fallback';
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
  /**
   * Adds one hit and returns the count and the window's end. With a member, the count is of
   * distinct members in the window: a member counted already adds nothing.
   */
  increment(key: string, windowMs: number, member?: string): Promise<{ count: number; resetAt: number }>;
  /** Takes one hit (or the member) back: an attempt that should not count. */
  decrement(key: string, member?: string): Promise<void>;
}

export function sqlCounterStore(sql: SqlRunner): CounterStore {
  let calls = 0;
  /** Adds `hits` to the key's counter (or the member, then hits is 1) in one statement. */
  const add = async (key: string, windowMs: number, member: string | null, hits: number) => {
    // One atomic statement: a new window starts when the old one has ended; the row lock of the
    // upsert makes concurrent hits (and concurrent new members) count one after another. Committed
    // asynchronously (db/async-commit.ts): a database crash may forget the last fraction of a second of
    // hits, never more than one window's worth, and every write request no longer waits for a disk flush.
    const [row] = await sql.query<{ count: number; window_ends: Date | string }>(
      `INSERT INTO rate_limit_counters (key, count, window_ends, members)
       VALUES ($1, $4::int, now() + ($2::int * interval '1 millisecond'), CASE WHEN $3::text IS NULL THEN '{}'::text[] ELSE ARRAY[$3::text] END)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE
           WHEN rate_limit_counters.window_ends <= now() THEN $4::int
           WHEN $3::text IS NOT NULL AND $3::text = ANY(rate_limit_counters.members) THEN rate_limit_counters.count
           ELSE rate_limit_counters.count + $4::int END,
         members = CASE
           WHEN rate_limit_counters.window_ends <= now() THEN excluded.members
           WHEN $3::text IS NULL OR $3::text = ANY(rate_limit_counters.members) THEN rate_limit_counters.members
           ELSE rate_limit_counters.members || $3::text END,
         window_ends = CASE WHEN rate_limit_counters.window_ends <= now() THEN excluded.window_ends ELSE rate_limit_counters.window_ends END
       RETURNING count, window_ends, ${ASYNC_COMMIT} AS async_commit`,
      [key, windowMs, member, hits],
      { prepare: true },
    );
    // Expired counters are swept now and then rather than on every request.
    if (++calls % 500 === 0) await sql.query('DELETE FROM rate_limit_counters WHERE window_ends < now()');
    return { count: Number(row!.count), resetAt: new Date(row!.window_ends).getTime() };
  };

  // Hits on one key that arrive while that key's statement is in flight go together as the next statement
  // (count + n): a busy subject (one caller's many concurrent calls) costs a statement per round trip, not per
  // request, and the row is locked once per group. Each hit still gets its own count, as if they had gone one
  // after another (the first of n gets count - n + 1). A hit on an idle key goes at once.
  type Waiting = { resolve: (value: { count: number; resetAt: number }) => void; reject: (error: unknown) => void };
  const waiting = new Map<string, { windowMs: number; hits: Waiting[] }>();
  const inFlight = new Set<string>();
  const flush = (key: string) => {
    const group = waiting.get(key);
    if (!group) return;
    waiting.delete(key);
    inFlight.add(key);
    const n = group.hits.length;
    add(key, group.windowMs, null, n)
      .then(
        ({ count, resetAt }) => group.hits.forEach((hit, i) => hit.resolve({ count: count - (n - 1 - i), resetAt })),
        (error: unknown) => group.hits.forEach((hit) => hit.reject(error)),
      )
      .finally(() => {
        inFlight.delete(key);
        flush(key);
      });
  };

  return {
    increment(key, windowMs, member) {
      // Distinct members are counted one statement each (whether a member is new is the row's to say).
      if (member !== undefined) return add(key, windowMs, member, 1);
      return new Promise((resolve, reject) => {
        const group = waiting.get(key) ?? { windowMs, hits: [] };
        group.hits.push({ resolve, reject });
        waiting.set(key, group);
        if (!inFlight.has(key)) flush(key);
      });
    },
    async decrement(key, member) {
      await sql.query(
        member
          ? `UPDATE rate_limit_counters SET count = count - 1, members = array_remove(members, $2) WHERE key = $1 AND $2 = ANY(members)
             RETURNING ${ASYNC_COMMIT}`
          : `UPDATE rate_limit_counters SET count = count - 1 WHERE key = $1 AND count > 0 RETURNING ${ASYNC_COMMIT}`,
        member ? [key, member] : [key],
      );
    },
  };
}

export function redisCounterStore(redis: Redis): CounterStore {
  return {
    async increment(key, windowMs, member) {
      const redisKey = `rl:${key}`;
      const result = member
        ? await redis.multi().sadd(redisKey, member).pexpire(redisKey, windowMs, 'NX').pttl(redisKey).scard(redisKey).exec()
        : await redis.multi().incr(redisKey).pexpire(redisKey, windowMs, 'NX').pttl(redisKey).exec();
      const count = Number(result?.[member ? 3 : 0]?.[1] ?? 1);
      const ttl = Number(result?.[2]?.[1] ?? windowMs);
      return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
    },
    async decrement(key, member) {
      if (member) return void (await redis.srem(`rl:${key}`, member));
      // DECR on a key that expired meanwhile would create it without a TTL: only when it exists.
      await redis.eval(
        "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0",
        1,
        `rl:${key}`,
      );
    },
  };
}

/**
 * Redis while it answers, else the database (docs/spec-decisions.md, Redis gone): limits keep
 * holding across instances when Redis dies, at the cost of one fresh window per switch (the two
 * stores do not share counts).
 */
export function fallbackCounterStore(primary: CounterStore, fallback: CounterStore, fallbacks: RedisFallbacks): CounterStore {
  return {
    increment: (key, windowMs, member) =>
      fallbacks.run(
        'rate limit',
        () => primary.increment(key, windowMs, member),
        () => fallback.increment(key, windowMs, member),
      ),
    decrement: (key, member) =>
      fallbacks.run(
        'rate limit refund',
        () => primary.decrement(key, member),
        () => fallback.decrement(key, member),
      ),
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

  /** Counts one hit (or one distinct member) against `name` for `subject` (an IP, a caller, ...). */
  async hit(name: RateLimitPolicyName, subject: string, member?: string): Promise<RateLimitResult> {
    const policy = this.policy(name);
    const { count, resetAt } = await this.store.increment(`${name}:${subject}`, policy.windowMs, member);
    return {
      allowed: count <= policy.limit,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - count),
      resetSeconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
    };
  }

  /** Counts a hit and throws 429 when over the limit (the refused hit is taken back). */
  async enforce(name: RateLimitPolicyName, subject: string, member?: string): Promise<RateLimitResult> {
    const result = await this.hit(name, subject, member);
    if (!result.allowed) {
      // A refused request does not count. A refused member was never counted before (a counted one
      // is within the limit), so taking it out again is exact.
      await this.refund(name, subject, member);
      throw rateLimitedError(name, result);
    }
    return result;
  }

  /** Takes back one hit (or a member) counted against `name` for `subject`. */
  refund(name: RateLimitPolicyName, subject: string, member?: string): Promise<void> {
    return this.store.decrement(`${name}:${subject}`, member);
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

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';
import { asyncMode, commitProbe } from '../../test/commit-probe';
import { RateLimiter, redisCounterStore, sqlCounterStore, type CounterStore } from './rate-limit';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let app: TestApp;
let redis: Redis;
beforeAll(async () => {
  app = await startTestApp();
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
});
afterAll(async () => {
  redis.disconnect();
  await app.close();
});

describe.each([
  ['the database', () => sqlCounterStore(app.database.sql)],
  ['Redis', () => redisCounterStore(redis)],
] as [string, () => CounterStore][])('rate limiter on %s', (_name, store) => {
  it('allows the limit per window and per subject, then refuses with the seconds to wait', async () => {
    const limiter = new RateLimiter(store(), { auth: { limit: 3, windowMs: 60_000 } });
    const subject = `ip:${randomUUID()}`;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit('auth', subject));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3]!.resetSeconds).toBeGreaterThan(0);
    expect(results[3]!.resetSeconds).toBeLessThanOrEqual(60);
    expect((await limiter.hit('auth', `ip:${randomUUID()}`)).allowed).toBe(true);
    await expect(limiter.enforce('auth', subject)).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': expect.stringMatching(/^\d+$/) },
    });
  });

  it('counts concurrent hits exactly', async () => {
    const limiter = new RateLimiter(store(), { auth: { limit: 10, windowMs: 60_000 } });
    const subject = `ip:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 30 }, () => limiter.hit('auth', subject)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });

  it('starts a new window when the old one ends', async () => {
    const limiter = new RateLimiter(store(), { auth: { limit: 1, windowMs: 1000 } });
    const subject = `ip:${randomUUID()}`;
    expect((await limiter.hit('auth', subject)).allowed).toBe(true);
    expect((await limiter.hit('auth', subject)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await limiter.hit('auth', subject)).allowed).toBe(true);
  });
});

describe('the database’s counters', () => {
  it('commit without waiting for the disk (a hit and a refund), and still count exactly', async () => {
    const probe = commitProbe(app.database.sql);
    const limiter = new RateLimiter(sqlCounterStore({ ...app.database.sql, query: probe.runner.query }), {
      auth: { limit: 2, windowMs: 60_000 },
    });
    const subject = `ip:${randomUUID()}`;
    await limiter.hit('auth', subject);
    await limiter.refund('auth', subject);
    expect((await limiter.hit('auth', subject)).remaining).toBe(1);
    expect(probe.commits).toEqual(Array(3).fill(asyncMode(app.database)));
  });
});

describe('the database’s counters under concurrency', () => {
  it('count concurrent hits on one key in fewer statements, each hit with its own count', async () => {
    let statements = 0;
    const counted = {
      ...app.database.sql,
      query: <T>(text: string, params?: unknown[]) => {
        if (text.includes('INSERT INTO rate_limit_counters')) statements++;
        return app.database.sql.query<T>(text, params);
      },
    };
    const limiter = new RateLimiter(sqlCounterStore(counted), { auth: { limit: 25, windowMs: 60_000 } });
    const subject = `ip:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.hit('auth', subject)));
    expect(results.map((r) => r.remaining).sort((a, b) => b - a)).toEqual([
      ...Array.from({ length: 25 }, (_, i) => 24 - i),
      ...Array.from({ length: 15 }, () => 0),
    ]);
    expect(results.filter((r) => r.allowed)).toHaveLength(25);
    // The first hit goes alone, the 39 that came while it was in flight together.
    expect(statements).toBe(2);
    expect((await limiter.hit('auth', subject)).allowed).toBe(false);
  });
});

describe('REDIS_URL', () => {
  it('moves the API’s counters to Redis, shared by every instance', async () => {
    await redis.del('rl:auth:ip:unknown');
    const instance = await startTestApp({ REDIS_URL, RATE_LIMIT_AUTH: '2/1m' });
    try {
      expect(instance.runtime.redis).not.toBeNull();
      const body = { owner_wallet: '0x' + '3'.repeat(40), agent_pubkey: randomUUID() };
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await instance.post('/api/v1/auth/challenge', body)).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect(await redis.get('rl:auth:ip:unknown')).not.toBeNull();
    } finally {
      await redis.del('rl:auth:ip:unknown');
      await instance.close();
    }
  });
});

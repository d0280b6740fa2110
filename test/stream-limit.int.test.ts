import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseSlots, LEASE_TTL_MS, redisSlots, type StreamSlots } from '../server/stream/stream-slots';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// Spec Limits, Stream: the per-caller limit on open streams counts the streams of every instance.
// Two lease stores stand for two instances here (each has its own instance id, as a second
// process would); test/webhooks-processes.int.test.ts checks it with two real processes on
// PostgreSQL. Redis runs when a server answers at REDIS_URL (default redis://127.0.0.1:6379).

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let app: TestApp;
let base: string;
let redis: Redis | null = null;

beforeAll(async () => {
  app = await startTestApp({ STREAM_MAX_PER_CALLER: '2' });
  base = await app.listen();
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await client.connect();
    redis = client;
  } catch {
    client.disconnect();
  }
});
afterAll(async () => {
  redis?.disconnect();
  await app.close();
});

const stores: [string, () => StreamSlots | null][] = [
  ['the database', () => databaseSlots(app.database)],
  ['Redis', () => (redis ? redisSlots(redis) : null)],
];

describe.each(stores)('stream leases on %s', (_name, make) => {
  it('counts the leases of every instance against one limit; a released or lapsed lease frees its slot', async (context) => {
    const one = make();
    const two = make();
    if (!one || !two) return context.skip('no Redis server at REDIS_URL');
    expect(one.instance).not.toBe(two.instance);
    const wallet = `0x${randomUUID().replace(/-/g, '')}`;
    const a = await one.acquire(wallet, 3);
    const b = await two.acquire(wallet, 3);
    const c = await two.acquire(wallet, 3);
    expect([a, b, c].every(Boolean)).toBe(true);
    expect(await one.acquire(wallet, 3)).toBeNull();
    expect(await two.acquire(wallet, 3)).toBeNull();
    // Another caller is not affected.
    expect(await one.acquire(`${wallet}ff`, 3)).not.toBeNull();
    await two.release(wallet, b!);
    const d = await one.acquire(wallet, 3);
    expect(d).not.toBeNull();
    expect(await two.acquire(wallet, 3)).toBeNull();
    // Concurrent acquisitions from both instances never exceed the limit.
    const other = `0x${randomUUID().replace(/-/g, '')}`;
    const raced = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).acquire(other, 4)));
    expect(raced.filter(Boolean)).toHaveLength(4);
    await one.renew([
      { wallet, lease: a! },
      { wallet, lease: d! },
    ]);
    await two.renew([{ wallet, lease: c! }]);
    expect(await one.acquire(wallet, 3)).toBeNull();
  });
});

it('lapsed leases (an instance that died) stop counting once their time is up', async () => {
  const dead = databaseSlots(app.database);
  const alive = databaseSlots(app.database);
  const wallet = `0x${randomUUID().replace(/-/g, '')}`;
  expect(await dead.acquire(wallet, 1)).not.toBeNull();
  expect(await alive.acquire(wallet, 1)).toBeNull();
  // The dead instance never renews: LEASE_TTL_MS later its lease is gone.
  await app.database.sql.query(
    `UPDATE stream_leases SET expires_at = now() - ($2::int * interval '1 millisecond') WHERE instance = $1`,
    [dead.instance, 1],
  );
  expect(LEASE_TTL_MS).toBeGreaterThan(0);
  expect(await alive.acquire(wallet, 1)).not.toBeNull();
});

// On PGlite the endpoint counts in memory (no second process can open that database).
it.skipIf(!process.env.DATABASE_URL)(
  'GET /api/v1/stream counts the streams another instance holds for the caller (429), and frees the slot on close (PostgreSQL; PGlite has one instance)',
  async () => {
    const account = newWallet();
    const session = await signIn(app, account);
    const wallet = account.address.toLowerCase();
    // Another instance on the same database holds one of the caller's two streams.
    const elsewhere = databaseSlots(app.database);
    const lease = await elsewhere.acquire(wallet, 2);
    expect(lease).not.toBeNull();
    const open = () => fetch(`${base}/api/v1/stream`, { headers: { authorization: `Bearer ${session.token}` } });
    const first = await open();
    expect(first.status).toBe(200);
    const refused = await open();
    expect(refused.status).toBe(429);
    await refused.text();
    await elsewhere.release(wallet, lease!);
    const second = await open();
    expect(second.status).toBe(200);
    // Closing a stream gives its lease back.
    await first.body!.cancel();
    let third: Response | null = null;
    for (let i = 0; i < 50 && third?.status !== 200; i++) {
      if (third) await third.text();
      await new Promise((resolve) => setTimeout(resolve, 100));
      third = await open();
    }
    expect(third!.status).toBe(200);
    await second.body!.cancel();
    await third!.body!.cancel();
  },
);

// Regressions of the second adversarial probe (security issue): each test failed before its fix.
describe('the event stream', () => {
  it('keeps the per-caller limit under 20 concurrent opens, also with since= (a database read before the stream opens)', async () => {
    const base = await app.listen();
    const { token } = await signIn(app, newWallet());
    const since = new Date(Date.now() - 60_000).toISOString();
    const opened = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${base}/api/v1/stream${i % 2 ? `?since=${encodeURIComponent(since)}` : ''}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      ),
    );
    const statuses = opened.map((r) => r.status);
    await Promise.all(opened.map((r) => r.body?.cancel()));
    // This file's limit is STREAM_MAX_PER_CALLER=2.
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(18);
  });
});

import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withTransaction } from '../core/db';
import type { Database } from '../core/db/open';
import type { RedisFallbacks } from '../core/redis-fallback';

// The per-caller limit on open streams (spec Limits, Stream) counted across every instance: each
// open stream holds a lease (Redis when REDIS_URL is set, else the `stream_leases` table; on
// embedded PGlite, which one process alone can open, this instance is the only one and counts in
// memory, see streamSlots()). An
// instance renews the leases of its open streams in one statement every LEASE_RENEW_MS; a lease
// of an instance that died without closing its streams lapses after LEASE_TTL_MS.

export const LEASE_TTL_MS = 60_000;
export const LEASE_RENEW_MS = 20_000;

export interface StreamSlots {
  /** This instance's id (leases are renewed per instance). */
  readonly instance: string;
  /** Takes a lease for `wallet` unless it holds `max` live ones already; returns its id or null. */
  acquire(wallet: string, max: number): Promise<string | null>;
  /** Gives a lease back (the stream closed). */
  release(wallet: string, lease: string): Promise<void>;
  /** Extends the leases of this instance's open streams. */
  renew(open: readonly { wallet: string; lease: string }[]): Promise<void>;
}

/** The lease store of an instance: Redis, else PostgreSQL, else (PGlite: one instance) memory. */
export function streamSlots(database: Database, redis: Redis | null, fallbacks: RedisFallbacks | null = null): StreamSlots {
  const local = database.kind === 'postgres' ? databaseSlots(database) : memorySlots();
  if (redis && fallbacks) return fallbackSlots(redisSlots(redis), local, fallbacks);
  return redis ? redisSlots(redis) : local;
}

/** Leases taken while Redis was down; they stay in the database until the stream closes. */
const FALLBACK = 'db:';

/**
 * Redis while it answers, else the database (or memory on PGlite). A lease remembers where it was
 * taken; a Redis lease that cannot be released or renewed while Redis is down lapses by itself.
 * While Redis is down the per-caller count starts from the database's leases only, so a caller may
 * briefly hold up to twice the limit (docs/reliability.md).
 */
export function fallbackSlots(primary: StreamSlots, fallback: StreamSlots, fallbacks: RedisFallbacks): StreamSlots {
  const ignore = (what: string) => (error: unknown) => fallbacks.failed(what, error);
  return {
    instance: primary.instance,
    acquire: (wallet, max) =>
      fallbacks.run(
        'stream lease',
        () => primary.acquire(wallet, max),
        async () => {
          const lease = await fallback.acquire(wallet, max);
          return lease === null ? null : FALLBACK + lease;
        },
      ),
    async release(wallet, lease) {
      if (lease.startsWith(FALLBACK)) return fallback.release(wallet, lease.slice(FALLBACK.length));
      await primary.release(wallet, lease).catch(ignore('stream lease release'));
    },
    async renew(open) {
      const local = open.filter(({ lease }) => lease.startsWith(FALLBACK));
      const remote = open.filter(({ lease }) => !lease.startsWith(FALLBACK));
      await Promise.all([
        fallback.renew(local.map(({ wallet, lease }) => ({ wallet, lease: lease.slice(FALLBACK.length) }))),
        fallbacks.usable() ? primary.renew(remote).catch(ignore('stream lease renewal')) : undefined,
      ]);
    },
  };
}

/** Leases of this process only: for PGlite, whose database no other process can open. */
export function memorySlots(): StreamSlots {
  const open = new Map<string, Set<string>>();
  return {
    instance: randomUUID(),
    async acquire(wallet, max) {
      let set = open.get(wallet);
      if (!set) open.set(wallet, (set = new Set()));
      if (set.size >= max) return null;
      const lease = randomUUID();
      set.add(lease);
      return lease;
    },
    async release(wallet, lease) {
      const set = open.get(wallet);
      set?.delete(lease);
      if (set?.size === 0) open.delete(wallet);
    },
    async renew() {},
  };
}

/** Lease acquisitions in flight on one instance (PostgreSQL): each holds a connection of the pool. */
export const MAX_ACQUIRING = 4;

/**
 * Runs at most `limit` of the calls at once, the rest waiting in order (in memory: a burst of
 * stream opens must not hold every pooled connection waiting on one caller's advisory lock, which
 * starved every other request, health included; the waiters are bounded by STREAM_MAX_OPEN).
 */
function gate(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

export function databaseSlots(database: Database): StreamSlots {
  const instance = randomUUID();
  const acquiring = gate(MAX_ACQUIRING);
  return {
    instance,
    acquire: (wallet, max) => acquiring(() => acquireLease(wallet, max)),
    async release(_wallet, lease) {
      await database.sql.query('DELETE FROM stream_leases WHERE id = $1', [lease]);
    },
    async renew() {
      await database.sql.query(
        `UPDATE stream_leases SET expires_at = now() + ($2::int * interval '1 millisecond') WHERE instance = $1`,
        [instance, LEASE_TTL_MS],
      );
    },
  };

  async function acquireLease(wallet: string, max: number): Promise<string | null> {
    const lease = randomUUID();
    // One caller's acquisitions run one at a time (advisory lock per wallet), so two instances
    // cannot both take the last slot.
    const taken = await withTransaction(
      async ({ sql }) => {
        await sql.query(`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext('vs_stream:' || $1))`, [wallet]);
        await sql.query('DELETE FROM stream_leases WHERE wallet = $1 AND expires_at < now()', [wallet]);
        const rows = await sql.query<{ id: string }>(
          `INSERT INTO stream_leases (id, wallet, instance, expires_at)
           SELECT $1, $2, $3, now() + ($5::int * interval '1 millisecond')
           WHERE (SELECT count(*) FROM stream_leases WHERE wallet = $2) < $4
           RETURNING id`,
          [lease, wallet, instance, max, LEASE_TTL_MS],
        );
        return rows.length > 0;
      },
      { database, timeoutMs: 5_000 },
    );
    return taken ? lease : null;
  }
}

const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export function redisSlots(redis: Redis): StreamSlots {
  const instance = randomUUID();
  const key = (wallet: string) => `stream:${wallet}`;
  return {
    instance,
    async acquire(wallet, max) {
      const lease = randomUUID();
      const now = Date.now();
      const ok = await redis.eval(ACQUIRE, 1, key(wallet), now, now + LEASE_TTL_MS, max, lease, LEASE_TTL_MS * 2);
      return Number(ok) === 1 ? lease : null;
    },
    async release(wallet, lease) {
      await redis.zrem(key(wallet), lease);
    },
    async renew(open) {
      if (open.length === 0) return;
      const expires = Date.now() + LEASE_TTL_MS;
      const pipeline = redis.pipeline();
      for (const { wallet, lease } of open) {
        pipeline.zadd(key(wallet), 'XX', expires, lease);
        pipeline.pexpire(key(wallet), LEASE_TTL_MS * 2);
      }
      await pipeline.exec();
    },
  };
}

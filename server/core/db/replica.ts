import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { log } from '../log';
import { PrismaClient } from './generated/client';
import { pgQuery, type QueryOptions, type SqlRunner } from './sql-runner';
import { POOL_IDLE_MS, SESSION_OPTIONS } from './session-options';

// A PostgreSQL read replica (DATABASE_REPLICA_URL; docs/deploy.md, docs/spec-decisions.md). Public
// reads (server/core/db/read-scope.ts) send their read-only queries here; everything else, and any
// query the replica cannot answer, goes to the primary. A replica is used only while it is reachable
// and at most `maxLagMs` behind the primary (a monitor compares WAL positions twice a second).

/** Prisma operations that only read: the ones a replica may answer. */
const READ_OPERATIONS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
]);

/** True for a statement that only reads: a plain SELECT with nothing that writes, locks or notifies. */
export function isReadOnlySql(sql: string): boolean {
  if (!/^\s*select\b/i.test(sql)) return false;
  return !/\b(insert|update|delete|merge|for\s+(no\s+key\s+)?update|for\s+(key\s+)?share|nextval|setval|pg_advisory\w*|pg_notify|pg_try_advisory\w*|set_config|into)\b/i.test(
    sql,
  );
}

/** A WAL position ('16/B374D848') as a number of bytes. */
export function parseLsn(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

export interface ReplicaStatus {
  /** The replica answers and is within maxLagMs of the primary: public reads go to it. */
  usable: boolean;
  /** How far behind the primary it was at the last check (ms; null when unknown). */
  lagMs: number | null;
  detail: string;
}

export interface Replica {
  prisma: PrismaClient;
  sql: SqlRunner;
  status(): ReplicaStatus;
  /** A failed query on the replica: stop using it until the monitor sees it answer again. */
  markFailed(error: unknown): void;
  close(): Promise<void>;
}

const SAMPLE_EVERY_MS = 500;

/**
 * Opens the replica's pool and its lag monitor. `primaryLsn` reads the primary's current WAL
 * position. Never throws for an unreachable replica: it starts as unusable and the monitor retries.
 */
export function openReplica(options: {
  connectionString: string;
  schema: string;
  applicationName: string;
  maxLagMs: number;
  primaryLsn: () => Promise<string>;
}): Replica {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: 10,
    // A replica that does not answer is given up on quickly: the primary answers instead.
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: POOL_IDLE_MS,
    application_name: options.applicationName,
    options: `-c search_path="${options.schema}" ${SESSION_OPTIONS}`,
  });
  pool.on('error', () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema: options.schema }) });
  const sql: SqlRunner = {
    async query<T>(text: string, params?: unknown[], options?: QueryOptions) {
      return (await pool.query(pgQuery(text, params, options))).rows as T[];
    },
    exec: async () => {
      throw new Error('the read replica runs no scripts');
    },
    withConnection: async () => {
      throw new Error('the read replica lends no connections');
    },
  };

  let usable = false;
  let lagMs: number | null = null;
  let detail = 'not checked yet';
  // The primary's WAL position at each sample: the replica's lag is the age of the oldest position
  // it has not replayed yet (0 when it has replayed everything the primary had written).
  const history: { at: number; lsn: bigint }[] = [];
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const sample = async () => {
    const now = Date.now();
    try {
      const [primary, replica] = await Promise.all([
        options.primaryLsn(),
        pool.query<{ lsn: string | null; recovering: boolean }>(
          'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovering',
        ),
      ]);
      history.push({ at: now, lsn: parseLsn(primary) });
      while (history.length > 0 && now - history[0]!.at > options.maxLagMs * 4 + 10_000) history.shift();
      const row = replica.rows[0]!;
      if (!row.recovering || !row.lsn) {
        // Not a standby (a promoted replica, or a second primary): its data may diverge; never read it.
        usable = false;
        lagMs = null;
        detail = 'not a standby (pg_is_in_recovery() is false)';
        return;
      }
      const replayed = parseLsn(row.lsn);
      const oldestMissing = history.find((entry) => entry.lsn > replayed);
      lagMs = oldestMissing ? now - oldestMissing.at : 0;
      const wasUsable = usable;
      usable = lagMs <= options.maxLagMs;
      detail = usable ? `replaying, ${lagMs} ms behind` : `more than ${options.maxLagMs} ms behind (${lagMs} ms)`;
      if (wasUsable !== usable) log.warn({ replica: detail }, usable ? 'read replica in use' : 'read replica not used: lagging');
    } catch (error) {
      if (usable) log.warn({ err: (error as Error).message }, 'read replica not used: it does not answer');
      usable = false;
      lagMs = null;
      detail = `unreachable: ${(error as Error).message}`;
    }
  };
  const loop = () => {
    if (stopped) return;
    timer = setTimeout(() => void sample().finally(loop), SAMPLE_EVERY_MS);
    timer.unref();
  };
  void sample().finally(loop);

  return {
    prisma,
    sql,
    status: () => ({ usable, lagMs, detail }),
    markFailed(error) {
      if (usable) log.warn({ err: (error as Error).message }, 'read replica query failed; reading from the primary');
      usable = false;
      detail = `query failed: ${(error as Error).message}`;
    },
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * The primary's Prisma client with its model reads sent to the replica while it is usable; a read the
 * replica fails (down, or a query cancelled by replay) runs again on the primary.
 */
export function routedPrisma(primary: PrismaClient, replica: Replica): PrismaClient {
  return primary.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (!READ_OPERATIONS.has(operation) || !replica.status().usable) return query(args);
          const delegate = (replica.prisma as unknown as Record<string, Record<string, (a: unknown) => Promise<unknown>>>)[
            model.charAt(0).toLowerCase() + model.slice(1)
          ]!;
          try {
            return await delegate[operation]!(args);
          } catch (error) {
            if (isQueryError(error)) throw error;
            replica.markFailed(error);
            return query(args);
          }
        },
      },
    },
  }) as unknown as PrismaClient;
}

/** The primary's raw SQL with read-only statements sent to the replica while it is usable. */
export function routedSql(primary: SqlRunner, replica: Replica): SqlRunner {
  return {
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions) {
      if (!replica.status().usable || !isReadOnlySql(sql)) return primary.query<T>(sql, params, options);
      try {
        return await replica.sql.query<T>(sql, params, options);
      } catch (error) {
        if (isStatementError(error)) throw error;
        replica.markFailed(error);
        return primary.query<T>(sql, params, options);
      }
    },
    exec: (sql) => primary.exec(sql),
    withConnection: (fn) => primary.withConnection(fn),
  };
}

/**
 * A statement PostgreSQL refused for its values (SQLSTATE class 22, data exception: a malformed uuid or an
 * instant out of range from a caller's input): the primary would refuse it the same, so the replica stays in
 * use. Anything else may be the replica's: a broken connection, a cancelled or conflicting query, or a column
 * a migration just added that it has not replayed yet (class 42), which the primary answers.
 */
function isStatementError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** A failure of the query itself (not found, invalid input): the primary would answer the same. */
function isQueryError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  // Prisma's own answers (P2025 record not found, P2xxx validation) are not the replica's fault.
  return typeof code === 'string' && /^P2\d{3}$/.test(code) && code !== 'P2010' && code !== 'P2024';
}

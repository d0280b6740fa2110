import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { changeChannel } from '../changes';
import type { Config } from '../config';
import { log } from '../log';
import { PrismaClient } from './generated/client';
import { deployMigrations } from './migrations';
import { openReplica, routedPrisma, routedSql, type Replica } from './replica';
import { pgliteRunner, poolRunner, type SqlRunner } from './sql-runner';
import { POOL_IDLE_MS, SESSION_OPTIONS } from './session-options';

export interface Database {
  kind: 'pglite' | 'postgres';
  prisma: PrismaClient;
  /** Raw SQL on the same database, for migrations and atomic hot-path statements. */
  sql: SqlRunner;
  /** The schema the tables live in (`public` unless DATABASE_URL names one). */
  schema: string;
  /**
   * Delivers every change notice sent on this schema's channel (server/core/changes.ts); `null`
   * means notices may have been lost (a dropped listener connection). Returns an unsubscribe.
   */
  onNotice(listener: (payload: string | null) => void): () => void;
  /**
   * With a read replica (DATABASE_REPLICA_URL): this database with read-only queries sent to the
   * replica while it is usable, for public reads (server/core/db.ts).
   */
  publicRead?: Database;
  replica?: Replica;
  /** The embedded engine (PGlite only): backups dump its data directory (docs/reliability.md). */
  pglite?: PGlite;
  close(): Promise<void>;
}

function noticeHub() {
  const listeners = new Set<(payload: string | null) => void>();
  return {
    deliver: (payload: string | null) => listeners.forEach((listener) => listener(payload)),
    subscribe(listener: (payload: string | null) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export interface OpenOptions {
  /** Apply pending migrations before returning (the server does this at start). */
  migrate?: boolean;
  /** An already-open PGlite instance (tests clone one from a migrated template). */
  pglite?: PGlite;
}

/** Splits `?schema=name` off a PostgreSQL URL: node-postgres would send it to the server as a setting. */
export function parsePostgresUrl(databaseUrl: string): { connectionString: string; schema: string } {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema') ?? 'public';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new Error('DATABASE_URL schema must be a plain identifier');
  url.searchParams.delete('schema');
  return { connectionString: url.toString(), schema };
}

export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'> &
    Partial<Pick<Config, 'DATABASE_REPLICA_URL' | 'DATABASE_REPLICA_MAX_LAG_MS'>>,
  options: OpenOptions = {},
): Promise<Database> {
  const database = config.DATABASE_URL
    ? await openPostgres(config.DATABASE_URL, {
        url: config.DATABASE_REPLICA_URL,
        maxLagMs: config.DATABASE_REPLICA_MAX_LAG_MS ?? 5000,
      })
    : await openPglite(options.pglite ?? (await createPglite(config.DATA_DIR)));
  if (options.migrate ?? true) {
    try {
      await deployMigrations(database.sql);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

/** A PGlite instance with the extensions the migrations use (pg_trgm: agent search). */
export function createPgliteInstance(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: { pg_trgm } });
}

async function createPglite(dataDir: string): Promise<PGlite> {
  const dir = path.join(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  return createPgliteInstance({ dataDir: dir });
}

/**
 * PGlite runs every statement on this thread and drains its queue through promise callbacks, so a burst
 * of queued statements never lets the event loop in: no timer, socket or health probe is served until
 * the queue is empty (200 small queries: 1.3 s without one turn of the loop). A statement that would
 * start more than STARVE_MS after the loop last turned first yields one turn (`setImmediate`), so I/O
 * interleaves with a long queue; when the loop turns by itself, nothing waits.
 */
const STARVE_MS = 10;
const yielding = new WeakSet<PGlite>();
function yieldBetweenStatements(pglite: PGlite): void {
  const engine = pglite as unknown as { _runExclusiveQuery?: <T>(run: () => Promise<T>) => Promise<T> };
  const exclusive = engine._runExclusiveQuery;
  if (typeof exclusive !== 'function' || yielding.has(pglite)) return;
  yielding.add(pglite);
  let turnedAt = performance.now();
  let watching = false;
  const turned = () => {
    watching = false;
    turnedAt = performance.now();
  };
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve)).then(turned);
  engine._runExclusiveQuery = <T>(run: () => Promise<T>) =>
    exclusive.call(pglite, () => {
      if (performance.now() - turnedAt > STARVE_MS) return turn().then(run);
      if (!watching) {
        watching = true;
        setImmediate(turned);
      }
      return run();
    }) as Promise<T>;
}

async function openPglite(pglite: PGlite): Promise<Database> {
  yieldBetweenStatements(pglite);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const hub = noticeHub();
  // One connection: a notice is delivered before the statement that caused it returns.
  const unlisten = await pglite.listen(changeChannel('public'), hub.deliver);
  return {
    kind: 'pglite',
    pglite,
    prisma,
    sql: pgliteRunner(pglite),
    schema: 'public',
    onNotice: hub.subscribe,
    async close() {
      await prisma.$disconnect();
      if (!pglite.closed) {
        await unlisten();
        await pglite.close();
      }
    },
  };
}

/** The application_name of this service's PostgreSQL connections on a schema. */
export function applicationName(schema: string): string {
  return `vouchsafe ${schema}`.slice(0, 63);
}

async function openPostgres(databaseUrl: string, replicaOptions: { url?: string; maxLagMs: number }): Promise<Database> {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const channel = changeChannel(schema);
  const hub = noticeHub();
  const onNotification = (message: pg.Notification) => {
    if (message.channel === channel) hub.deliver(message.payload ?? null);
  };
  // One connection per instance listens (persistentListener). A pooled session gets its own changes as
  // NOTICE messages (vs.own_notices; migration own_change_notices), applied once its transaction ended and
  // before its statement's caller resumes, so this instance never reads a cache its own write made stale.
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // A server that does not answer (restarting, unreachable) fails the request in 5 s (503) rather
    // than queueing it forever; backends carry the schema's name so operators (and the fault tests)
    // can find this service's connections in pg_stat_activity.
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: POOL_IDLE_MS,
    application_name: applicationName(schema),
    // client_min_messages: a role or database set above NOTICE would silence the own-change notices.
    options: `-c search_path="${schema}" ${SESSION_OPTIONS} -c vs.own_notices=on -c client_min_messages=notice`,
    onConnect: (client) => applyOwnNotices(client, hub.deliver),
  });
  // An idle client dropped by the server must not crash the process.
  pool.on('error', () => {});
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const listener = await persistentListener(connectionString, applicationName(schema), channel, onNotification, () =>
    hub.deliver(null),
  );
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
  const sql = poolRunner(pool);
  // The replica's tables are the primary's (same schema name); it is not migrated (it cannot be written).
  const replica = replicaOptions.url
    ? openReplica({
        connectionString: parsePostgresUrl(replicaOptions.url).connectionString,
        schema,
        applicationName: applicationName(schema),
        maxLagMs: replicaOptions.maxLagMs,
        primaryLsn: async () => (await sql.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn'))[0]!.lsn,
      })
    : undefined;
  const database: Database = {
    kind: 'postgres',
    prisma,
    sql,
    schema,
    onNotice: hub.subscribe,
    replica,
    async close() {
      await replica?.close();
      await listener.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
  if (replica) database.publicRead = { ...database, prisma: routedPrisma(prisma, replica), sql: routedSql(sql, replica) };
  return database;
}

const OWN_NOTICE = 'vs_change ';

/**
 * Delivers the change notices a pooled session's own statements raised (`vs_change <payload>` NOTICE
 * messages) when its transaction has ended: at the ReadyForQuery that leaves it idle, which node-postgres
 * reads before it completes the statement (this listener runs first), so the write's caller resumes with
 * every cache already told. A rolled-back transaction's notices are delivered too: a needless drop, never a
 * stale read. Notices sent to other sessions' listeners arrive through persistentListener as before.
 */
function applyOwnNotices(client: pg.ClientBase, deliver: (payload: string) => void): void {
  const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
  let pending: string[] = [];
  connection.on('notice', (message: { message?: string }) => {
    if (message.message?.startsWith(OWN_NOTICE)) pending.push(message.message.slice(OWN_NOTICE.length));
  });
  connection.prependListener('readyForQuery', (message: { status?: string }) => {
    if (pending.length === 0 || message.status !== 'I') return;
    const ended = pending;
    pending = [];
    for (const payload of ended) deliver(payload);
  });
}

/** How often the listening connection proves it is alive, and how long it may take to answer. */
const LISTENER_CHECK_MS = 5_000;

/**
 * One connection that always listens, even when the pool has closed its idle clients, so notices
 * from other instances always arrive. It reconnects after a failure and then reports `lost`
 * (notices sent meanwhile are gone, so every cache must be dropped). It is the only listener of its
 * instance, so a connection that stopped answering without closing (a half-open socket) must not go
 * unnoticed: every LISTENER_CHECK_MS it runs `SELECT 1`, and one not answered within as long counts
 * as lost.
 */
async function persistentListener(
  connectionString: string,
  name: string,
  channel: string,
  onNotification: (message: pg.Notification) => void,
  lost: () => void,
): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let checking = false;
  const reconnect = () => {
    retry = setTimeout(() => void connect().then(lost, reconnect), 1000);
    retry.unref();
  };
  const drop = (next: pg.Client, reason: string) => {
    log.warn({ err: reason }, 'change listener lost its connection; reconnecting');
    void next.end().catch(() => {});
    if (!closed && client === next) {
      client = null;
      reconnect();
    }
  };
  const check = setInterval(() => {
    const current = client;
    if (!current || checking) return;
    checking = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${LISTENER_CHECK_MS} ms`)), LISTENER_CHECK_MS);
    });
    Promise.race([current.query('SELECT 1'), late])
      .catch((error: Error) => drop(current, error.message))
      .finally(() => {
        clearTimeout(timer);
        checking = false;
      });
  }, LISTENER_CHECK_MS);
  check.unref();
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, application_name: name, keepAlive: true });
    next.on('notification', onNotification);
    next.on('error', (error) => drop(next, error.message));
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) return void (await next.end());
    client = next;
  };
  try {
    await connect();
  } catch (error) {
    clearInterval(check);
    throw error;
  }
  return {
    async close() {
      closed = true;
      clearInterval(check);
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

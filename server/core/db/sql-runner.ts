import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { ASYNC_COMMIT } from './async-commit';

export interface QueryOptions {
  /**
   * Keep the statement prepared on each pooled PostgreSQL connection: parsed and planned there once, then
   * only bound and run (PGlite and transactions run it as usual). Planning was most of the database's time
   * for the per-caller reads: GET /api/v1/agents/me/stats's statement took 1.0-1.6 ms planned each time and
   * 0.1-0.24 ms prepared. Only for SQL text from a bounded set (values as parameters, never inlined): each
   * distinct text stays prepared on every connection.
   */
  prepare?: boolean;
}

/** The raw SQL surface shared by PGlite and node-postgres, used by migrations and hot-path queries. */
export interface SqlRunner {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /** Runs a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` on one connection (needed for session-level advisory locks). */
  withConnection<R>(fn: (conn: SqlRunner) => Promise<R>): Promise<R>;
}

/** Collects the parameters of a statement built in pieces: add() returns the placeholder. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A LIKE/ILIKE pattern matching `text` anywhere, its `%`, `_` and `\\` matching themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Anything that runs parameterised SQL: the pool, PGlite, or a transaction. */
export type Queryable = Pick<SqlRunner, 'query'>;

/** Raw SQL inside a Prisma interactive transaction (which, on PGlite, holds the only connection). */
export function prismaRunner(tx: { $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T> }): Queryable {
  return {
    query: <T>(sql: string, params: unknown[] = []) => tx.$queryRawUnsafe<T[]>(sql, ...params),
  };
}

/**
 * On PGlite every commit is durable: the database lives in this process, so an application crash is a database
 * crash, and an asynchronous commit still in the WAL buffers (no WAL writer runs beside it) would be lost after
 * its caller was answered (the chaos test found an acknowledged free call gone after a SIGKILL).
 */
const durableOnPglite = (sql: string) => (sql.includes(ASYNC_COMMIT) ? sql.replaceAll(ASYNC_COMMIT, `'on'`) : sql);

export function pgliteRunner(pglite: PGlite): SqlRunner {
  const runner: SqlRunner = {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await pglite.query<T>(durableOnPglite(sql), params);
      return result.rows;
    },
    async exec(sql) {
      await pglite.exec(sql);
    },
    // PGlite is a single connection already.
    withConnection: (fn) => fn(runner),
  };
  return runner;
}

const preparedNames = new Map<string, string>();

/** A prepared statement's name: its text's hash, so one name never stands for two texts on a connection. */
function preparedName(sql: string): string {
  let name = preparedNames.get(sql);
  if (!name) {
    name = `q_${createHash('sha256').update(sql).digest('base64url').slice(0, 32)}`;
    if (preparedNames.size < 1000) preparedNames.set(sql, name);
  }
  return name;
}

/** A statement for node-postgres, named (prepared per connection) when asked to be. */
export function pgQuery(sql: string, params: unknown[] | undefined, options?: QueryOptions): pg.QueryConfig {
  return { text: sql, values: params, ...(options?.prepare ? { name: preparedName(sql) } : {}) };
}

export function poolRunner(pool: pg.Pool): SqlRunner {
  return {
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions) {
      const result = await pool.query(pgQuery(sql, params, options));
      return result.rows as T[];
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async withConnection(fn) {
      const client = await pool.connect();
      let failed = false;
      try {
        return await fn(clientRunner(client));
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        // A connection that failed mid-use (killed, or left inside an aborted transaction) is
        // destroyed rather than handed to the next caller.
        client.release(failed);
      }
    },
  };
}

function clientRunner(client: pg.PoolClient): SqlRunner {
  const runner: SqlRunner = {
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions) {
      const result = await client.query(pgQuery(sql, params, options));
      return result.rows as T[];
    },
    async exec(sql) {
      await client.query(sql);
    },
    withConnection: (fn) => fn(runner),
  };
  return runner;
}

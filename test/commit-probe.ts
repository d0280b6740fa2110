import type { Database } from '../server/core/db/open';
import type { Queryable, SqlRunner } from '../server/core/db/sql-runner';

/** The mode an asynchronous commit runs in: 'off' on PostgreSQL; PGlite commits every statement durably. */
export const asyncMode = (database: Pick<Database, 'kind'>) => (database.kind === 'pglite' ? 'on' : 'off');

/**
 * A runner that runs each statement in a transaction of its own and notes the synchronous_commit its commit
 * uses ('off' for a statement that asked for an asynchronous commit, core/db/async-commit.ts), one statement
 * at a time (PGlite has one connection).
 */
export function commitProbe(sql: SqlRunner): { runner: Queryable; commits: string[] } {
  const commits: string[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  const runner: Queryable = {
    query<T>(text: string, params?: unknown[]): Promise<T[]> {
      const run = queue.then(() =>
        sql.withConnection(async (conn) => {
          await conn.query('BEGIN');
          try {
            const rows = await conn.query<T>(text, params);
            const [mode] = await conn.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
            await conn.query('COMMIT');
            commits.push(mode!.synchronous_commit);
            return rows;
          } catch (error) {
            await conn.query('ROLLBACK');
            throw error;
          }
        }),
      );
      queue = run.catch(() => undefined);
      return run;
    },
  };
  return { runner, commits };
}

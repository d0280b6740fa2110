import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SqlRunner } from './sql-runner';

// The server and the scripts run from the project root (npm start, npm test, next build).
export const MIGRATIONS_DIR = path.join(process.cwd(), 'prisma', 'migrations');
// Any fixed 64-bit number; every instance deploying migrations takes this lock first.
const MIGRATION_LOCK_KEY = 7_372_816_254;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(/*turbopackIgnore: true*/ dir)) return [];
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(/*turbopackIgnore: true*/ path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * Applies pending migrations in order, each in its own transaction, under an advisory lock so
 * that several instances starting at once apply each migration exactly once.
 * Returns the names it applied.
 */
export async function deployMigrations(runner: SqlRunner, migrations = listMigrations()): Promise<string[]> {
  return runner.withConnection(async (conn) => {
    await conn.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await conn.exec(`CREATE TABLE IF NOT EXISTS _migrations (
        name text PRIMARY KEY,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const applied = new Map(
        (await conn.query<{ name: string; checksum: string }>('SELECT name, checksum FROM _migrations')).map((row) => [
          row.name,
          row.checksum,
        ]),
      );
      const done: string[] = [];
      for (const migration of migrations) {
        const checksum = applied.get(migration.name);
        if (checksum !== undefined) {
          if (checksum !== migration.checksum) {
            throw new Error(`migration ${migration.name} was edited after it was applied; add a new migration instead`);
          }
          continue;
        }
        await conn.exec('BEGIN');
        try {
          await conn.exec(migration.sql);
          await conn.query('INSERT INTO _migrations (name, checksum) VALUES ($1, $2)', [migration.name, migration.checksum]);
          await conn.exec('COMMIT');
        } catch (error) {
          await conn.exec('ROLLBACK');
          throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
        }
        done.push(migration.name);
      }
      return done;
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}

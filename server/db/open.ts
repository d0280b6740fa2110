import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { Config } from '../config';
import { PrismaClient } from './generated/client';
import { deployMigrations } from './migrations';
import { pgliteRunner, poolRunner, type SqlRunner } from './sql-runner';

export interface Database {
  kind: 'pglite' | 'postgres';
  prisma: PrismaClient;
  /** Raw SQL on the same database, for migrations and atomic hot-path statements. */
  sql: SqlRunner;
  close(): Promise<void>;
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
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  options: OpenOptions = {},
): Promise<Database> {
  const database = config.DATABASE_URL
    ? await openPostgres(config.DATABASE_URL)
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

async function createPglite(dataDir: string): Promise<PGlite> {
  const dir = path.join(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  return PGlite.create(dir);
}

async function openPglite(pglite: PGlite): Promise<Database> {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    kind: 'pglite',
    prisma,
    sql: pgliteRunner(pglite),
    async close() {
      await prisma.$disconnect();
      if (!pglite.closed) await pglite.close();
    },
  };
}

async function openPostgres(databaseUrl: string): Promise<Database> {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const pool = new pg.Pool({ connectionString, max: 10, options: `-c search_path="${schema}"` });
  // An idle client dropped by the server must not crash the process.
  pool.on('error', () => {});
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
  return {
    kind: 'postgres',
    prisma,
    sql: poolRunner(pool),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

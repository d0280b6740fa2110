import type { Prisma } from './db/generated/client';
import { prismaRunner, type Queryable } from './db/sql-runner';
import type { Database } from './db/open';
import { inPublicRead } from './db/read-scope';

// The process-wide database, set once at start (server, tests). Services read it through db().
// Kept on globalThis: under `npm start` the Next.js bundle holds a second copy of this module,
// and both copies must share one database.
const slot = globalThis as typeof globalThis & { __vouchsafeDatabase?: Database | null };

export function useDatabase(database: Database | null): void {
  slot.__vouchsafeDatabase = database;
}

/**
 * The process-wide database. Inside a public read (read-scope.ts) with a read replica configured, its
 * read-only queries go to the replica (server/core/db/replica.ts); everything else to the primary.
 */
export function database(): Database {
  const current = primaryDatabase();
  return current.publicRead && inPublicRead() ? current.publicRead : current;
}

/** The primary, always: transactions, and anything that must see the latest committed write. */
export function primaryDatabase(): Database {
  const current = slot.__vouchsafeDatabase;
  if (!current) throw new Error('database not initialised; call useDatabase() at start');
  return current;
}

/** The Prisma client of the process-wide database. */
export function db() {
  return database().prisma;
}

/** A transaction's two handles: Prisma's client and raw SQL on the same connection. */
export interface Tx {
  prisma: Prisma.TransactionClient;
  sql: Queryable;
}

/**
 * Runs `fn` in one database transaction (of the process-wide database, or `options.database`). Inside
 * it, use only `tx` (on PGlite the transaction holds the only connection: db() or database().sql there
 * would wait for ever). The one place that opens a transaction: no service calls `$transaction`.
 */
export function withTransaction<T>(
  fn: (tx: Tx) => Promise<T>,
  options: { timeoutMs?: number; database?: Database } = {},
): Promise<T> {
  const timeout = options.timeoutMs ?? 15_000;
  const prisma = (options.database ?? primaryDatabase()).prisma;
  return prisma.$transaction((client) => fn({ prisma: client, sql: prismaRunner(client) }), { timeout, maxWait: timeout });
}

/**
 * Holds a lock named `key` until `tx` ends: transactions that take the same key run their check and
 * write one after another (for example a per-wallet count checked against a limit, then an insert).
 */
export async function lockUntilCommit(tx: Tx, key: string): Promise<void> {
  await tx.sql.query('SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
}

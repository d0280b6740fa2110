import type { Database } from './db/open';

// The process-wide database, set once at start (server, tests). Services read it through db().
// Kept on globalThis: under `npm start` the Next.js bundle holds a second copy of this module,
// and both copies must share one database.
const slot = globalThis as typeof globalThis & { __vouchsafeDatabase?: Database | null };

export function useDatabase(database: Database | null): void {
  slot.__vouchsafeDatabase = database;
}

export function database(): Database {
  const current = slot.__vouchsafeDatabase;
  if (!current) throw new Error('database not initialised; call useDatabase() at start');
  return current;
}

/** The Prisma client of the process-wide database. */
export function db() {
  return database().prisma;
}

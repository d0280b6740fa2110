import { AsyncLocalStorage } from 'node:async_hooks';

// Marks the code that may read from a read replica (DATABASE_REPLICA_URL): a public read's handler
// (server/http/policy.ts). db() and database() consult it (server/core/db.ts); caches do not keep what
// was read inside it (server/core/ttl-cache.ts). No dependencies, so any module can ask.

// On globalThis: under `npm start` the Next.js bundle holds a second copy of this module.
const slot = globalThis as typeof globalThis & { __vouchsafeReadScope?: AsyncLocalStorage<true> };
const scope = (slot.__vouchsafeReadScope ??= new AsyncLocalStorage<true>());

/** Runs `fn` as a public read: its queries may be answered by the replica. Used only when one is configured. */
export function asPublicRead<T>(fn: () => T): T {
  return scope.run(true, fn);
}

/** True inside asPublicRead (whether or not a replica is configured). */
export function inPublicRead(): boolean {
  return scope.getStore() === true;
}

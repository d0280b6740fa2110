import { TtlCache } from '../cache/ttl-cache';
import { database } from '../db';
import type { Caller } from '../http/caller';

// On the embedded database one process owns all the data, so resolved credentials can be kept
// for a few seconds and dropped the moment anything they depend on changes (a revocation, an
// agent created or its limit changed): the next request then reads the database again. With
// DATABASE_URL several instances share the data, so every request reads it and a revocation
// anywhere applies at once.
const cache = new TtlCache<{ caller: Caller; expiresAt: number } | null>(10_000, 50_000);

export async function cachedCredential(
  key: string,
  load: () => Promise<{ caller: Caller; expiresAt: number } | null>,
): Promise<Caller | null> {
  const entry = database().kind === 'pglite' ? await cache.get(key, load) : await load();
  return entry && entry.expiresAt > Date.now() ? entry.caller : null;
}

/** Call after a credential is revoked or an agent is created or changed. */
export function credentialsChanged(): void {
  cache.clear();
}

import type { Caller } from '../core/caller';
import { sharedCache } from '../core/shared-state';

// Resolved credentials are kept for a few seconds and dropped the moment anything they depend on
// changes anywhere (a revocation, an agent created or its limit changed; server/core/changes.ts):
// the next request then reads the database again.
const cache = sharedCache<{ caller: Caller; expiresAt: number } | null>('auth.credentials', {
  ttlMs: 10_000,
  maxEntries: 50_000,
  dropOn: ['agent', 'credential'],
});

export async function cachedCredential(
  key: string,
  load: () => Promise<{ caller: Caller; expiresAt: number } | null>,
): Promise<Caller | null> {
  const entry = await cache().get(key, load);
  return entry && entry.expiresAt > Date.now() ? entry.caller : null;
}

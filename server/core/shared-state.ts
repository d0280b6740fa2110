import type { ChangeKind } from './changes';
import { currentRuntime, type Runtime } from './runtime';
import { TtlCache } from './ttl-cache';

// Caches and other in-memory state live on the runtime, never in module scope: both copies of
// the server code (server.ts and the Next.js bundle) then share them, a test's fresh runtime
// starts empty, and change notices reach every cache from one place.

/**
 * Per-instance state created on first use and kept on the running runtime, or on `runtime` when given (code
 * that holds its own runtime, such as a worker's stop, which must reach that runtime's state even when
 * another one is current).
 */
export function sharedState<T>(name: string, create: (runtime: Runtime) => T): (runtime?: Runtime) => T {
  return (runtime = currentRuntime()) => {
    const { state } = runtime;
    if (!state.has(name)) state.set(name, create(runtime));
    return state.get(name) as T;
  };
}

export interface SharedCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  /** Change notices that empty the cache (server/core/changes.ts). */
  dropOn: readonly ChangeKind[];
}

/** A TtlCache on the runtime (as sharedState), emptied whenever a change of one of `dropOn` commits anywhere. */
export function sharedCache<V>(name: string, options: SharedCacheOptions): (runtime?: Runtime) => TtlCache<V> {
  return sharedState(name, (runtime) => {
    const cache = new TtlCache<V>(options.ttlMs, options.maxEntries);
    for (const kind of options.dropOn) runtime.changes.on(kind, () => cache.clear());
    return cache;
  });
}

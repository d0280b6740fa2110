import { inPublicRead } from './db/read-scope';

/**
 * A small in-process cache: entries expire after `ttlMs`, the oldest is dropped past
 * `maxEntries`, and concurrent misses for one key share one load. Entries are kept in the order they
 * were loaded, so each load also drops the expired ones at the front: a cache keyed by ids that keep
 * coming (jobs, signals) holds what its TTL allows, not `maxEntries` of dead entries.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { at: number; value: Promise<V>; settled?: V }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    // What a public read loaded may come from a lagging read replica: used, never kept for others.
    if (inPublicRead()) return load();
    const value = load();
    const now = Date.now();
    const entry: { at: number; value: Promise<V>; settled?: V } = { at: now, value };
    for (const [oldKey, old] of this.entries) {
      if (now - old.at < this.ttlMs && this.entries.size < this.maxEntries) break;
      this.entries.delete(oldKey);
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    value.then(
      (settled) => (entry.settled = settled),
      // A failed load is not cached.
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  /** The loaded value of a fresh entry, without loading (undefined when absent, expired or still loading). */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && Date.now() - hit.at < this.ttlMs ? hit.settled : undefined;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose key or loaded value matches (entries still loading are kept). */
  deleteWhere(match: (key: string, value: V | undefined) => boolean): void {
    for (const [key, entry] of [...this.entries]) if (match(key, entry.settled)) this.entries.delete(key);
  }

  /** Entries held now (fresh, expired not yet dropped, or loading). */
  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}

import { CHANGE_KINDS, type ChangeKind } from '../core/changes';
import { sharedState } from '../core/shared-state';
import { currentRuntime } from '../core/runtime';

// The response cache of public reads (docs/architecture.md, "Caching"). An endpoint declares
// `cache: { maxAgeMs, dropOn }` (endpoint.ts); runDeclared (policy.ts) then answers an anonymous call
// from here, whichever door it came through. What is kept is the serialized JSON of a 200 answer and
// its headers, keyed by the endpoint and its parsed (normalised) params and query, so a hit costs no
// handler, no query and no JSON.stringify. Freshness:
// - an entry is dropped the moment a change of one of its `dropOn` kinds commits anywhere (change
//   notices, server/core/changes.ts; the writing instance hears it before its statement returns);
//   `maxAgeMs` bounds what no notice covers (docs/spec-decisions.md lists each endpoint's bound);
// - a computation that a notice overtook is handed to the requests already waiting for it but not
//   kept, and later requests start a new one (they may have seen the write);
// - only a caller presenting no credential is answered from or stored into it (isAnonymousCall in
//   policy.ts), so an owner's or a signed-in caller's view is never shared and never stale.
// Memory is bounded by bytes (RESPONSE_CACHE_MAX_BYTES, least recently used dropped first); an
// answer larger than RESPONSE_CACHE_MAX_ENTRY_BYTES is not kept.

export const RESPONSE_CACHE_MAX_BYTES = 32 * 1024 * 1024;
export const RESPONSE_CACHE_MAX_ENTRY_BYTES = 1024 * 1024;

export interface CachePolicy {
  /** The longest an answer is served after it was computed (the staleness bound for what no notice covers). */
  maxAgeMs: number;
  /** Change notices that drop the endpoint's answers at once. */
  dropOn: readonly ChangeKind[];
}

export interface CachedAnswer {
  status: number;
  /** The serialized JSON body. */
  json: string;
  headers: Record<string, string>;
}

interface Entry extends CachedAnswer {
  at: number;
  maxAgeMs: number;
  bytes: number;
  kinds: readonly ChangeKind[];
}

interface Flight {
  promise: Promise<CachedAnswer | null>;
  /** Set when a change notice overtook the computation: its answer is not kept. */
  overtaken: boolean;
  kinds: readonly ChangeKind[];
}

export class ResponseCache {
  // Kept in least-recently-used order (a hit moves its entry to the end).
  private readonly entries = new Map<string, Entry>();
  private readonly byKind = new Map<ChangeKind, Set<string>>();
  private readonly flights = new Map<string, Flight>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxBytes = RESPONSE_CACHE_MAX_BYTES,
    private readonly maxEntryBytes = RESPONSE_CACHE_MAX_ENTRY_BYTES,
  ) {}

  /** The bytes held now (body and header text). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The cached answer for `key`, else the answer `compute` gives (identical concurrent misses share
   * one computation). `compute` resolves to null for an answer that must not be kept (not a plain 200).
   */
  async get(
    key: string,
    policy: CachePolicy,
    compute: () => Promise<CachedAnswer | null>,
  ): Promise<CachedAnswer | null | undefined> {
    const hit = this.entries.get(key);
    if (hit) {
      if (Date.now() - hit.at < hit.maxAgeMs) {
        this.hits++;
        this.entries.delete(key);
        this.entries.set(key, hit);
        return hit;
      }
      this.drop(key);
    }
    const running = this.flights.get(key);
    if (running) return running.promise;
    this.misses++;
    const flight: Flight = { promise: compute(), overtaken: false, kinds: policy.dropOn };
    this.flights.set(key, flight);
    try {
      const answer = await flight.promise;
      if (answer && !flight.overtaken) this.store(key, policy, answer);
      return answer;
    } finally {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    }
  }

  private store(key: string, policy: CachePolicy, answer: CachedAnswer): void {
    let bytes = answer.json.length * 2 + key.length * 2;
    for (const name in answer.headers) bytes += (name.length + answer.headers[name]!.length) * 2;
    if (bytes > this.maxEntryBytes) return;
    this.drop(key);
    while (this.bytes + bytes > this.maxBytes && this.entries.size > 0) this.drop(this.entries.keys().next().value!);
    this.entries.set(key, { ...answer, at: Date.now(), maxAgeMs: policy.maxAgeMs, bytes, kinds: policy.dropOn });
    this.bytes += bytes;
    for (const kind of policy.dropOn) {
      let keys = this.byKind.get(kind);
      if (!keys) this.byKind.set(kind, (keys = new Set()));
      keys.add(key);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const kind of entry.kinds) this.byKind.get(kind)?.delete(key);
  }

  /** A change of `kind` committed: its answers go, and computations in flight are not kept. */
  changed(kind: ChangeKind): void {
    const keys = this.byKind.get(kind);
    if (keys) for (const key of [...keys]) this.drop(key);
    for (const [key, flight] of this.flights) {
      if (!flight.kinds.includes(kind)) continue;
      flight.overtaken = true;
      this.flights.delete(key);
    }
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.drop(key);
    for (const flight of this.flights.values()) flight.overtaken = true;
    this.flights.clear();
  }
}

/** The running instance's response cache, subscribed to every change kind. */
export const responseCache = sharedState('http.response-cache', () => {
  const cache = new ResponseCache();
  const { changes } = currentRuntime();
  for (const kind of CHANGE_KINDS) {
    changes.on(kind, () => cache.changed(kind));
  }
  return cache;
});

// The policies endpoints declare (docs/spec-decisions.md, "Response cache", lists each endpoint's).
/** Agent lists, agents, endorsements, stats: agents and trust drop at once; counters kept by jobs elsewhere show within 1 s. */
export const DIRECTORY_CACHE: CachePolicy = { maxAgeMs: 1_000, dropOn: ['agent', 'trust', 'job'] };
/** Skill lists: a skill's own row and its author's handle. */
export const SKILLS_CACHE: CachePolicy = { maxAgeMs: 1_000, dropOn: ['skill', 'agent'] };
/** Reads no change notice covers (signals, smart money, trade tokens): at most 1 s old. */
export const SHORT_CACHE: CachePolicy = { maxAgeMs: 1_000, dropOn: [] };

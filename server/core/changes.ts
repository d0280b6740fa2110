// Change notices. Database triggers (migration `change_notices`) publish one after every commit
// that touches what a cache depends on: `NOTIFY vs_<schema>, '{"kind": ..., "id": ...}'`. Every
// instance on the database hears it (one listening connection each), and the instance that made the
// change hears it before its own statement returns (the session's NOTICE of it, migration
// own_change_notices), so a cache subscribed here is never stale after a write anywhere.
//   agent:      a row of agents was created, changed or deleted (id: the agent)
//   credential: a token or API key was revoked (id: the credential)
//   trust:      an endorsement, attestation or connection of any type changed (id: the subject agent)
//   rank:       an input of the propagated score changed (migration rank_notices): a trust edge (id: its
//               target), or an agent added, removed or with another restart weight (tier, verification, age;
//               id: the agent)
//   event:      an event was appended to the log (id: its name); a wake-up only
//   spend_policy: a credential's spend policy was written, changed or deleted (id: the credential)
//   skill:      a skill was published, changed, hidden or removed, or installed or reviewed (id: the skill)
//   webhook:    a webhook was created or deleted, paused or resumed, or its events changed (migration
//               webhook_change_notices; id: the webhook)
//   edge:       a partnership or collaboration edge's strength changed (migration edge_strength_notices; id: its
//               target), which `trust` does not say; heard by the connection graph alone (its edge index and cache)
export const CHANGE_KINDS = [
  'agent',
  'credential',
  'trust',
  'rank',
  'event',
  'job',
  'spend_policy',
  'skill',
  'webhook',
  'edge',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeNotice {
  kind: ChangeKind;
  id: string | null;
}

type Listener = (notice: ChangeNotice) => void;

/** The channel an instance listens on: one per database schema, so test schemas stay apart. */
export function changeChannel(schema: string): string {
  return `vs_${schema}`.toLowerCase();
}

/** Parses a notice sent by the triggers; null for anything else. */
export function parseChangeNotice(payload: string | undefined): ChangeNotice | null {
  if (!payload) return null;
  try {
    const value = JSON.parse(payload) as { kind?: unknown; id?: unknown };
    if (!CHANGE_KINDS.includes(value.kind as ChangeKind)) return null;
    return { kind: value.kind as ChangeKind, id: typeof value.id === 'string' ? value.id : null };
  } catch {
    return null;
  }
}

export class ChangeBus {
  private readonly listeners = new Map<ChangeKind, Set<Listener>>();

  /** Calls `listener` for every notice of `kind`; returns a function that unsubscribes. */
  on(kind: ChangeKind, listener: Listener): () => void {
    let set = this.listeners.get(kind);
    if (!set) this.listeners.set(kind, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  publish(notice: ChangeNotice): void {
    for (const listener of this.listeners.get(notice.kind) ?? []) listener(notice);
  }

  /** Everything may have changed (a lost database connection): every listener of every kind runs. */
  publishAll(): void {
    for (const kind of CHANGE_KINDS) this.publish({ kind, id: null });
  }
}

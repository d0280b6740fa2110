import type { Queryable } from '../core/db/sql-runner';
import { EVENT_MIN_TIER, isEventName, type EventName } from './emit';

// Reading the event log (ARCHITECTURE.md, Events). Ids are log positions assigned at commit
// (migration events_commit_order): reading `id > cursor ORDER BY id` and advancing the cursor to
// the last id read never skips an event, whatever the writers do concurrently.

export interface LoggedEvent {
  id: bigint;
  name: EventName;
  data: Record<string, unknown>;
  /** Lowercase wallets that may see it; empty for a public event. */
  audience: string[];
  createdAt: Date;
}

/** The delivered form (spec: Events, Envelope): webhooks' body and the stream's data. */
export interface EventEnvelope {
  id: string;
  event: EventName;
  timestamp: string;
  data: Record<string, unknown>;
}

interface EventRow {
  id: string | bigint | number;
  name: string;
  data: Record<string, unknown> | string;
  audience: string[] | null;
  created_at: Date | string;
}

function toEvent(row: EventRow): LoggedEvent {
  return {
    id: BigInt(row.id),
    name: row.name as EventName,
    data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
    audience: row.audience ?? [],
    createdAt: new Date(row.created_at),
  };
}

/** Events after `afterId` in log order (at most `limit`). */
export async function readEventsAfter(runner: Queryable, afterId: bigint, limit: number): Promise<LoggedEvent[]> {
  const rows = await runner.query<EventRow>(
    'SELECT id, name, data, audience, created_at FROM events WHERE id > $1 ORDER BY id LIMIT $2',
    [afterId.toString(), limit],
  );
  return rows.filter((row) => isEventName(row.name)).map(toEvent);
}

/** One event by id, or null. */
export async function readEvent(runner: Queryable, id: bigint): Promise<LoggedEvent | null> {
  const rows = await runner.query<EventRow>('SELECT id, name, data, audience, created_at FROM events WHERE id = $1', [
    id.toString(),
  ]);
  return rows[0] ? toEvent(rows[0]) : null;
}

/** The newest log position (0 for an empty log). */
export async function headEventId(runner: Queryable): Promise<bigint> {
  const rows = await runner.query<{ id: string | bigint | null }>('SELECT max(id) AS id FROM events');
  return BigInt(rows[0]?.id ?? 0);
}

/**
 * How long after its start a transaction that appends events commits, at most, as cursorSince() assumes (an
 * event's created_at is its transaction's start; its id comes in commit order): the longest timeout any
 * withTransaction is given (120 s; the default is 15 s), after which Prisma rolls it back.
 */
export const COMMIT_WITHIN_S = 120;

/**
 * A cursor from which reading returns every event appended at or after `since`: just before the
 * first such event in commit order (a few older events with later commits may come along; none is left out).
 * That event started at or after `since` and committed no later than the first event created since `since`
 * did, so within COMMIT_WITHIN_S of that one's start: two reads of the created_at index over that span, where
 * `min(id) ... WHERE created_at >= $1` walked the primary key through every older event (112 ms past the
 * 164,000 events older than a day at the large preset, and more every day, the log being kept).
 */
export async function cursorSince(runner: Queryable, since: Date): Promise<bigint> {
  const rows = await runner.query<{ id: string | bigint | null }>(
    `WITH first AS (SELECT created_at FROM events WHERE created_at >= $1 ORDER BY created_at LIMIT 1)
     SELECT min(e.id) AS id FROM first CROSS JOIN LATERAL (
       SELECT id FROM events
       WHERE created_at >= $1 AND created_at <= first.created_at + make_interval(secs => ${COMMIT_WITHIN_S}) OFFSET 0) e`,
    [since],
  );
  const first = rows[0]?.id;
  if (first !== null && first !== undefined) return BigInt(first) - 1n;
  return headEventId(runner);
}

export function envelope(event: LoggedEvent): EventEnvelope {
  return { id: `evt_${event.id}`, event: event.name, timestamp: event.createdAt.toISOString(), data: event.data };
}

export interface Viewer {
  /** Lowercase wallet. */
  wallet: string;
  /** Whether the viewer's tier is entry or above (tier-gated events). */
  entryTier: boolean;
}

/**
 * Who sees an event (docs/spec-decisions.md): public events everyone; private ones (an audience)
 * only the wallets named; tier-gated ones (spec: Min tier) only viewers at that tier.
 */
export function canSee(event: Pick<LoggedEvent, 'name' | 'audience'>, viewer: Viewer): boolean {
  if (EVENT_MIN_TIER[event.name] === 'entry' && !viewer.entryTier) return false;
  return event.audience.length === 0 || event.audience.includes(viewer.wallet);
}

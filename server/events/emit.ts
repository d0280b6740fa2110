import { currentRuntime } from '../core/runtime';
import type { Queryable, SqlParams } from '../core/db/sql-runner';

import { EVENT_MIN_TIER, EVENT_NAMES, isEventName, type EventName } from '../schemas/events';

// The names, their minimum tiers and payload schemas live with the API schemas (server/schemas/events.ts).
export { EVENT_MIN_TIER, EVENT_NAMES, isEventName, type EventName };

/** Audience wallets as stored: lowercase, unique; empty for a public event. */
export function audienceOf(options: EmitOptions): string[] {
  if (!options.audience) return [];
  const wallets = [...new Set(options.audience.map((wallet) => wallet.toLowerCase()))];
  if (wallets.length === 0) throw new Error('a private event needs at least one audience wallet');
  return wallets;
}

/**
 * Wakes stream readers and webhook workers (the runtime's `event` change notices) after an event
 * was committed; correctness never depends on it.
 */
export function wake(name: EventName): void {
  const { changes } = currentRuntime();
  queueMicrotask(() => changes.publish({ kind: 'event', id: name }));
}

export interface EmitOptions {
  /**
   * The wallets that may see the event (stream and webhooks); omitted for a public event. An
   * invocation is seen by the caller and the target's owner, skill.installed by the author,
   * scan.completed by the requester.
   */
  audience?: readonly string[];
}

/**
 * Appends an event to the log. Pass the transaction that makes the change (prismaRunner(tx))
 * so that the event exists exactly when the change does. The event gets its log position (id)
 * when that transaction commits (migration events_commit_order); emit as late in the
 * transaction as is convenient.
 */
export async function emit(
  name: EventName,
  data: Record<string, unknown>,
  runner: Queryable,
  options: EmitOptions = {},
): Promise<void> {
  await runner.query('INSERT INTO events (name, data, audience) VALUES ($1, $2::jsonb, $3::text[])', [
    name,
    JSON.stringify(data),
    audienceOf(options),
  ]);
  wake(name);
}

/**
 * A CTE that appends an event when the CTE `guard` returned a row: for statements that must
 * record an event exactly when their change happens. Call wake() once the statement committed.
 */
export function eventCte(
  p: SqlParams,
  cteName: string,
  name: EventName,
  data: Record<string, unknown>,
  guard: string,
  options: EmitOptions = {},
): string {
  return `${cteName} AS (
    INSERT INTO events (name, data, audience)
    SELECT ${p.add(name)}, ${p.add(JSON.stringify(data))}::jsonb, ${p.add(audienceOf(options))}::text[]
    FROM (SELECT 1 FROM ${guard} LIMIT 1) g RETURNING id)`;
}

/**
 * Runs one data-modifying statement built with `p` (it must end with RETURNING) and appends the
 * event in the same statement, only if the statement changed a row. Returns whether it did.
 */
export async function withEvent(
  runner: Queryable,
  p: SqlParams,
  statement: string,
  name: EventName,
  data: Record<string, unknown>,
  options: EmitOptions = {},
): Promise<boolean> {
  const rows = await runner.query(
    `WITH changed AS (${statement}), ${eventCte(p, 'ev', name, data, 'changed', options)} SELECT count(*)::int AS n FROM ev`,
    p.values,
  );
  const appended = Number((rows[0] as { n: number } | undefined)?.n ?? 0) > 0;
  if (appended) wake(name);
  return appended;
}

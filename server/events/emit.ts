import { currentRuntime } from '../core/runtime';
import type { Queryable, SqlParams } from '../core/db/sql-runner';

// The platform's event names (spec: Events).
export const EVENT_NAMES = [
  'agent.registered',
  'agent.tier_upgraded',
  'agent.invoked',
  'smart_money.alert',
  'smart_money.large_swap',
  'smart_money.swap',
  'smart_money.new_position',
  'smart_money.exit',
  'scan.completed',
  'skill.published',
  'skill.installed',
  'job.posted',
  'job.bid',
  'job.completed',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/**
 * Wakes stream readers and webhook workers (the runtime's `event` change notices) after an event
 * was committed; correctness never depends on it.
 */
export function wake(name: EventName): void {
  const { changes } = currentRuntime();
  queueMicrotask(() => changes.publish({ kind: 'event', id: name }));
}

/**
 * Appends an event to the log. Pass the transaction that makes the change (prismaRunner(tx))
 * so that the event exists exactly when the change does.
 */
export interface EmitOptions {
  /**
   * The wallets that may see the event (stream and webhooks); omitted for a public event. An
   * invocation is seen by the caller and the target's owner, skill.installed by the author,
   * scan.completed by the requester.
   */
  audience?: readonly string[];
  /**
   * The lowest tier that may receive the event (spec Events: smart_money.alert and
   * smart_money.large_swap need entry); stored once the delivery layer lands, as `audience`.
   */
  minTier?: 'entry' | 'pro' | 'enterprise';
}

export async function emit(
  name: EventName,
  data: Record<string, unknown>,
  runner: Queryable,
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- stored once the delivery layer lands (issue 10)
  options: EmitOptions = {},
): Promise<bigint> {
  const [row] = await runner.query<{ id: string | bigint }>(
    'INSERT INTO events (name, data) VALUES ($1, $2::jsonb) RETURNING id',
    [name, JSON.stringify(data)],
  );
  wake(name);
  return BigInt(row!.id);
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
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- stored once the delivery layer lands (issue 10), as emit()'s
  options: EmitOptions = {},
): string {
  return `${cteName} AS (
    INSERT INTO events (name, data) SELECT ${p.add(name)}, ${p.add(JSON.stringify(data))}::jsonb
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
): Promise<boolean> {
  const rows = await runner.query(
    `WITH changed AS (${statement}), ${eventCte(p, 'ev', name, data, 'changed')} SELECT count(*)::int AS n FROM ev`,
    p.values,
  );
  const appended = Number((rows[0] as { n: number } | undefined)?.n ?? 0) > 0;
  if (appended) wake(name);
  return appended;
}

import { EventEmitter } from 'node:events';
import { database } from '../db';
import type { Queryable } from '../db/sql-runner';

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

/** In-process wake-up for stream readers and webhook workers; correctness never depends on it. */
export const eventWakeups = new EventEmitter();
eventWakeups.setMaxListeners(0);

function wake(name: EventName): void {
  queueMicrotask(() => eventWakeups.emit('event', name));
}

/**
 * Appends an event to the log. Pass the transaction that makes the change (prismaRunner(tx))
 * so that the event exists exactly when the change does.
 */
export async function emit(name: EventName, data: Record<string, unknown>, runner: Queryable = database().sql): Promise<bigint> {
  const [row] = await runner.query<{ id: string | bigint }>(
    'INSERT INTO events (name, data) VALUES ($1, $2::jsonb) RETURNING id',
    [name, JSON.stringify(data)],
  );
  wake(name);
  return BigInt(row!.id);
}

/**
 * Runs one data-modifying statement (it must end with RETURNING) and appends the event in the same
 * statement, only if the statement changed a row. Returns how many events were appended (0 or 1).
 */
export async function withEvent(
  runner: Queryable,
  statement: string,
  params: unknown[],
  name: EventName,
  data: Record<string, unknown>,
): Promise<number> {
  const n = params.length;
  const rows = await runner.query(
    `WITH changed AS (${statement})
     INSERT INTO events (name, data) SELECT $${n + 1}, $${n + 2}::jsonb FROM (SELECT 1 FROM changed LIMIT 1) c RETURNING id`,
    [...params, name, JSON.stringify(data)],
  );
  if (rows.length) wake(name);
  return rows.length;
}

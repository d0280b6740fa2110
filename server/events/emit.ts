import { EventEmitter } from 'node:events';
import { db } from '../db';
import type { Prisma } from '../db/generated/client';

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

type Writer = Pick<Prisma.TransactionClient, 'event'>;

/**
 * Appends an event to the log. Pass the transaction that makes the change so that the event
 * exists exactly when the change does.
 */
export async function emit(name: EventName, data: Record<string, unknown>, writer: Writer = db()): Promise<bigint> {
  const event = await writer.event.create({ data: { name, data: data as Prisma.InputJsonValue }, select: { id: true } });
  queueMicrotask(() => eventWakeups.emit('event', name));
  return event.id;
}

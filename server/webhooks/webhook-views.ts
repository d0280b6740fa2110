import { db } from '../core/db';
import type { EventName } from '../events/emit';

interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  isActive: boolean;
  deliveryCount: number;
  lastDeliveredAt: Date | null;
  createdAt: Date;
}

export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events as EventName[],
    is_active: row.isActive,
    delivery_count: row.deliveryCount,
    last_delivered_at: row.lastDeliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

interface DeliveryRow {
  id: string;
  webhookId: string;
  eventId: bigint;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export function presentDelivery(row: DeliveryRow, names: Map<bigint, string>) {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: `evt_${row.eventId}`,
    event: names.get(row.eventId) as EventName,
    status: row.status as 'pending' | 'delivering' | 'delivered' | 'failed',
    attempts: row.attempts,
    response_code: row.lastStatusCode,
    error: row.lastError,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function eventNames(ids: bigint[]): Promise<Map<bigint, string>> {
  const events = await db().event.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(events.map((event) => [event.id, event.name]));
}

export async function presentDeliveryRow(row: DeliveryRow) {
  return presentDelivery(row, await eventNames([row.eventId]));
}

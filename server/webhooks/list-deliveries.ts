import type { Address } from 'viem';
import { db } from '../core/db';
import { ownWebhook } from './load-webhook';
import { eventNames, presentDelivery } from './webhook-views';

/** The newest deliveries of one of the caller's webhooks. */
export async function listDeliveries(wallet: Address, id: string, limit: number) {
  await ownWebhook(wallet, id);
  const rows = await db().webhookDelivery.findMany({ where: { webhookId: id }, orderBy: { createdAt: 'desc' }, take: limit });
  const names = await eventNames(rows.map((row) => row.eventId));
  return { deliveries: rows.map((row) => presentDelivery(row, names)) };
}

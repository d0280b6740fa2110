import type { Address } from 'viem';
import { db } from '../core/db';
import type { Prisma } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { ownWebhook } from './load-webhook';
import { presentDeliveryRow } from './webhook-views';

type DeliveryClient = Pick<Prisma.TransactionClient, 'webhook' | 'webhookDelivery'>;

/**
 * Starts a finished delivery again inside `client` (the caller's transaction or the database):
 * 404 unknown, 409 still pending; the webhook is enabled again. Call wakeDeliveries() once committed.
 */
export async function restartDelivery(client: DeliveryClient, webhookId: string, deliveryId: string) {
  const { count } = await client.webhookDelivery.updateMany({
    where: { id: deliveryId, webhookId, status: { in: ['delivered', 'failed'] } },
    data: { status: 'pending', attempts: 0, nextAttemptAt: new Date(), claimedUntil: null },
  });
  const row = await client.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId } });
  if (!row) throw ApiError.notFound('Delivery');
  if (count === 0) throw new ApiError('conflict', 'This delivery is still pending; wait for its attempts to finish');
  await client.webhook.update({
    where: { id: webhookId },
    // An owner's redeliver is tried now: an open circuit's pause ends (the failures in a row stay, so it is one probe).
    data: { isActive: true, disabledReason: null, consecutiveFailures: 0, pausedUntil: null },
  });
  return row;
}

/** Tells the webhook workers that a delivery is due now. */
export function wakeDeliveries(): void {
  currentRuntime().changes.publish({ kind: 'event', id: null });
}

/**
 * Sends a finished delivery again (a new series of attempts, same event id). A delivery that is
 * still pending or being sent is 409; a disabled webhook is enabled again by this.
 */
export async function redeliver(wallet: Address, id: string, deliveryId: string) {
  await ownWebhook(wallet, id);
  const row = await restartDelivery(db(), id, deliveryId);
  wakeDeliveries();
  return presentDeliveryRow(row);
}

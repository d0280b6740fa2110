import type { Address } from 'viem';
import { db, withTransaction } from '../core/db';
import { ApiError } from '../core/errors';
import { restartDelivery, wakeDeliveries } from '../webhooks/redeliver-webhook';
import { eventNames, presentDeliveryRow } from '../webhooks/webhook-views';
import { recordAdminAction } from './audit-log';

// Admin console: webhook deliveries that ended failed, across every owner, and redelivery.

export async function listFailedDeliveries(input: { page: number }) {
  const where = { status: 'failed' };
  const [rows, total] = await Promise.all([
    db().webhookDelivery.findMany({
      where,
      include: { webhook: { select: { url: true, ownerWallet: true, isActive: true } } },
      orderBy: [{ lastAttemptAt: 'desc' }, { id: 'asc' }],
      take: 25,
      skip: (input.page - 1) * 25,
    }),
    db().webhookDelivery.count({ where }),
  ]);
  const names = await eventNames(rows.map((row) => row.eventId));
  const owners = [...new Set(rows.map((row) => row.webhook.ownerWallet))];
  const agents = await db().agent.findMany({
    where: { ownerWallet: { in: owners } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { ownerWallet: true, handle: true },
  });
  const handleOf = new Map<string, string>();
  for (const agent of agents) if (!handleOf.has(agent.ownerWallet)) handleOf.set(agent.ownerWallet, agent.handle);
  return {
    total,
    deliveries: rows.map((row) => ({
      id: row.id,
      webhook_id: row.webhookId,
      url: row.webhook.url,
      webhook_active: row.webhook.isActive,
      owner_wallet: row.webhook.ownerWallet,
      owner_handle: handleOf.get(row.webhook.ownerWallet) ?? null,
      event: names.get(row.eventId) ?? null,
      event_id: `evt_${row.eventId}`,
      attempts: row.attempts,
      response_code: row.lastStatusCode,
      error: row.lastError,
      last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    })),
  };
}

/** Sends a failed delivery again on behalf of its owner (a new series of attempts), audited. */
export async function adminRedeliver(admin: Address, deliveryId: string) {
  const row = await withTransaction(async (tx) => {
    const delivery = await tx.prisma.webhookDelivery.findUnique({
      where: { id: deliveryId },
      include: { webhook: { select: { url: true, ownerWallet: true } } },
    });
    if (!delivery) throw ApiError.notFound('Delivery');
    const restarted = await restartDelivery(tx.prisma, delivery.webhookId, deliveryId);
    await recordAdminAction(
      {
        adminWallet: admin,
        action: 'webhook.redeliver',
        targetType: 'webhook_delivery',
        targetId: deliveryId,
        details: {
          webhook_id: delivery.webhookId,
          url: delivery.webhook.url,
          owner_wallet: delivery.webhook.ownerWallet,
          previous_status: delivery.status,
          attempts: delivery.attempts,
        },
      },
      tx.prisma,
    );
    return restarted;
  });
  wakeDeliveries();
  return presentDeliveryRow(row);
}

import type { Address } from 'viem';
import { tierAtLeast, tierOfWallet } from '../agents/tiers';
import { db, lockUntilCommit, withTransaction } from '../core/db';
import type { Prisma } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { EVENT_MIN_TIER, type EventName } from '../events/emit';
import { checkOutboundUrl } from '../net/check-url';
import { encryptSecret, generateSecret } from './signing';

// Webhook subscriptions: register, list, delete; deliveries: list, redeliver. Every operation is
// on the caller's own webhooks; another wallet's webhook is "not found" (its existence is not told).

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

export interface NewWebhook {
  url: string;
  events: EventName[];
  secret?: string;
}

/** Registers a webhook for `wallet`; the generated secret is returned once when none was sent. */
export async function createWebhook(wallet: Address, input: NewWebhook) {
  const { config } = currentRuntime();
  // https only, http on testnet (spec: Events, delivery rule 4); private targets only with ALLOW_PRIVATE_URLS.
  const url = checkOutboundUrl(
    input.url,
    { allowHttp: config.SERVICE_NETWORK === 'testnet', allowPrivate: config.ALLOW_PRIVATE_URLS },
    'url',
  );
  const gated = input.events.filter((name) => EVENT_MIN_TIER[name] !== 'none');
  if (gated.length > 0) {
    const tier = await tierOfWallet(wallet);
    if (!tierAtLeast(tier, 'entry')) {
      throw new ApiError('tier_required', `Events ${gated.join(', ')} need the entry tier or above`, {
        required_tier: 'entry',
        current_tier: tier,
        events: gated,
      });
    }
  }
  const secret = input.secret ?? generateSecret();
  // The count and the insert under one per-wallet lock, so concurrent creates cannot pass the limit.
  const row = await withTransaction(async (tx) => {
    await lockUntilCommit(tx, `webhooks:${wallet.toLowerCase()}`);
    const owned = await tx.prisma.webhook.count({ where: { ownerWallet: wallet } });
    if (owned >= config.WEBHOOKS_PER_CALLER) {
      throw new ApiError('conflict', `At most ${config.WEBHOOKS_PER_CALLER} webhooks per wallet; delete one first`, {
        limit: config.WEBHOOKS_PER_CALLER,
      });
    }
    return tx.prisma.webhook.create({
      data: {
        ownerWallet: wallet,
        url: url.toString(),
        events: input.events,
        secretCiphertext: encryptSecret(secret, config.AUTH_SECRET),
      },
    });
  });
  return input.secret ? presentWebhook(row) : { ...presentWebhook(row), secret };
}

export async function listWebhooks(wallet: Address) {
  const rows = await db().webhook.findMany({ where: { ownerWallet: wallet }, orderBy: { createdAt: 'desc' } });
  return { webhooks: rows.map(presentWebhook) };
}

async function ownWebhook(wallet: Address, id: string) {
  const row = await db().webhook.findFirst({ where: { id, ownerWallet: wallet } });
  if (!row) throw ApiError.notFound('Webhook');
  return row;
}

export async function deleteWebhook(wallet: Address, id: string): Promise<void> {
  const { count } = await db().webhook.deleteMany({ where: { id, ownerWallet: wallet } });
  if (count === 0) throw ApiError.notFound('Webhook');
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

/** The newest deliveries of one of the caller's webhooks. */
export async function listDeliveries(wallet: Address, id: string, limit: number) {
  await ownWebhook(wallet, id);
  const rows = await db().webhookDelivery.findMany({ where: { webhookId: id }, orderBy: { createdAt: 'desc' }, take: limit });
  const names = await eventNames(rows.map((row) => row.eventId));
  return { deliveries: rows.map((row) => presentDelivery(row, names)) };
}

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
    data: { isActive: true, disabledReason: null, consecutiveFailures: 0 },
  });
  return row;
}

/** Tells the webhook workers that a delivery is due now. */
export function wakeDeliveries(): void {
  currentRuntime().changes.publish({ kind: 'event', id: null });
}

export async function presentDeliveryRow(row: DeliveryRow) {
  return presentDelivery(row, await eventNames([row.eventId]));
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

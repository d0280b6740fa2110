import type { Address } from 'viem';
import { db } from '../core/db';
import { presentWebhook } from './webhook-views';

export async function listWebhooks(wallet: Address) {
  const rows = await db().webhook.findMany({ where: { ownerWallet: wallet }, orderBy: { createdAt: 'desc' } });
  return { webhooks: rows.map(presentWebhook) };
}

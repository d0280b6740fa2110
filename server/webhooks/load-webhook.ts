import type { Address } from 'viem';
import { db } from '../core/db';
import { ApiError } from '../core/errors';

// Every webhook operation (register, list, delete; deliveries: list, redeliver) is on the caller's
// own webhooks; another wallet's webhook is "not found" (its existence is not told).

export async function ownWebhook(wallet: Address, id: string) {
  const row = await db().webhook.findFirst({ where: { id, ownerWallet: wallet } });
  if (!row) throw ApiError.notFound('Webhook');
  return row;
}

import type { Address } from 'viem';
import { db } from '../core/db';
import { ApiError } from '../core/errors';

export async function deleteWebhook(wallet: Address, id: string): Promise<void> {
  const { count } = await db().webhook.deleteMany({ where: { id, ownerWallet: wallet } });
  if (count === 0) throw ApiError.notFound('Webhook');
}

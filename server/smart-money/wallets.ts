import type { Address } from 'viem';
import type { Caller } from '../core/caller';
import { db } from '../core/db';
import type { SmartMoneyWallet } from '../core/db/generated/client';
import { ApiError } from '../core/errors';

// Tracked wallets (spec: SmartMoneyWallet). Any signed-in agent may add a wallet to the watch list
// (POST /api/smart-money/watch, POST /api/v1/smart-money/wallets); the list is shared.

export const SMART_MONEY_LIMITS = { maxTracked: 5000, walletsDefault: 50, walletsMax: 200 } as const;

export function walletView(wallet: SmartMoneyWallet) {
  return {
    id: wallet.id,
    wallet_address: wallet.walletAddress,
    label: wallet.label,
    win_rate: wallet.winRate,
    total_volume_usd: wallet.totalVolumeUsd,
    confidence: wallet.confidence as 'high' | 'medium' | 'low',
    last_active: wallet.lastActive?.toISOString() ?? null,
  };
}

/** Adds a wallet to the watch list; an already tracked wallet keeps its row (a label is set if it had none). */
export async function watchWallet(caller: Caller, address: Address, label: string | undefined) {
  const existing = await db().smartMoneyWallet.findUnique({ where: { walletAddress: address } });
  if (existing) {
    const updated =
      label && !existing.label ? await db().smartMoneyWallet.update({ where: { id: existing.id }, data: { label } }) : existing;
    return { created: false, wallet: walletView(updated) };
  }
  if ((await db().smartMoneyWallet.count()) >= SMART_MONEY_LIMITS.maxTracked) {
    throw new ApiError('conflict', `The watch list is full (${SMART_MONEY_LIMITS.maxTracked} wallets)`);
  }
  const created = await db().smartMoneyWallet.upsert({
    where: { walletAddress: address },
    create: { walletAddress: address, label: label ?? null, addedBy: caller.wallet },
    update: {},
  });
  return { created: true, wallet: walletView(created) };
}

export async function listWallets(search: string | undefined, limit: number) {
  const term = search?.trim();
  const wallets = await db().smartMoneyWallet.findMany({
    where: term
      ? { OR: [{ walletAddress: { contains: term, mode: 'insensitive' } }, { label: { contains: term, mode: 'insensitive' } }] }
      : {},
    orderBy: [{ totalVolumeUsd: 'desc' }, { createdAt: 'asc' }],
    take: limit,
  });
  return wallets.map(walletView);
}

import type { Address } from 'viem';
import type { Caller } from '../core/caller';
import { db, lockUntilCommit, withTransaction } from '../core/db';
import type { SmartMoneyWallet } from '../core/db/generated/client';
import { ApiError } from '../core/errors';

// Tracked wallets (spec: SmartMoneyWallet). A caller with the smart_money.watch scope may add a wallet
// to the watch list (POST /api/smart-money/watch, POST /api/v1/smart-money/wallets); the list is shared,
// so each wallet may add at most `perWallet` of its entries (docs/spec-decisions.md).

export const SMART_MONEY_LIMITS = { maxTracked: 5000, perWallet: 100, walletsDefault: 50, walletsMax: 200 } as const;

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
  // The per-wallet count and the insert run under the adder's lock, so parallel requests cannot pass the quota.
  const created = await withTransaction(async (tx) => {
    await lockUntilCommit(tx, `smart-money-watch:${caller.wallet.toLowerCase()}`);
    if ((await tx.prisma.smartMoneyWallet.count({ where: { addedBy: caller.wallet } })) >= SMART_MONEY_LIMITS.perWallet) {
      throw new ApiError(
        'conflict',
        `A wallet may add at most ${SMART_MONEY_LIMITS.perWallet} wallets to the shared watch list`,
        {
          limit: SMART_MONEY_LIMITS.perWallet,
        },
      );
    }
    if ((await tx.prisma.smartMoneyWallet.count()) >= SMART_MONEY_LIMITS.maxTracked) {
      throw new ApiError('conflict', `The watch list is full (${SMART_MONEY_LIMITS.maxTracked} wallets)`);
    }
    return tx.prisma.smartMoneyWallet.upsert({
      where: { walletAddress: address },
      create: { walletAddress: address, label: label ?? null, addedBy: caller.wallet },
      update: {},
    });
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

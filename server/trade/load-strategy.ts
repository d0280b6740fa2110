import type { Caller } from '../core/caller';
import { db } from '../core/db';
import type { Strategy } from '../core/db/generated/client';
import { ApiError } from '../core/errors';

/** The caller's strategy; another wallet's is 404. */
export async function ownedStrategy(caller: Caller, id: string): Promise<Strategy> {
  const strategy = await db().strategy.findUnique({ where: { id } });
  if (!strategy || strategy.ownerWallet !== caller.wallet) throw ApiError.notFound('Strategy');
  return strategy;
}

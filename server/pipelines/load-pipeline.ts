import type { Caller } from '../core/caller';
import { db } from '../core/db';
import type { Pipeline } from '../core/db/generated/client';
import { ApiError } from '../core/errors';

/** The caller's pipeline; another wallet's (or a deleted one) is 404. */
export async function ownedPipeline(caller: Caller, id: string): Promise<Pipeline> {
  const pipeline = await db().pipeline.findUnique({ where: { id } });
  if (!pipeline || pipeline.status === 'deleted' || pipeline.ownerWallet !== caller.wallet) throw ApiError.notFound('Pipeline');
  return pipeline;
}

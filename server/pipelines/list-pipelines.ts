import type { Caller } from '../core/caller';
import { db } from '../core/db';
import { pipelineView } from './pipeline-views';

export async function listPipelines(caller: Caller) {
  const pipelines = await db().pipeline.findMany({
    where: { ownerWallet: caller.wallet, status: { not: 'deleted' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
  return { pipelines: pipelines.map(pipelineView), total: pipelines.length };
}

import type { Caller } from '../core/caller';
import { db } from '../core/db';
import { ownedPipeline } from './load-pipeline';
import { pipelineView, runView } from './pipeline-views';

export async function getPipeline(caller: Caller, id: string) {
  const pipeline = await ownedPipeline(caller, id);
  const runs = await db().pipelineRun.findMany({
    where: { pipelineId: pipeline.id },
    orderBy: [{ startedAt: 'desc' }, { id: 'asc' }],
    take: 20,
  });
  return { ...pipelineView(pipeline), recent_runs: runs.map(runView) };
}

import type { Caller } from '../core/caller';
import { db } from '../core/db';
import { ownedPipeline } from './load-pipeline';

/** DELETE: the pipeline stops for good and disappears from lists; its runs stay on record. No refund. */
export async function deletePipeline(caller: Caller, id: string) {
  const pipeline = await ownedPipeline(caller, id);
  await db().pipeline.update({ where: { id: pipeline.id }, data: { status: 'deleted', nextRunAt: null } });
  return { pipeline_id: pipeline.id, deleted: true as const };
}

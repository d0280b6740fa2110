import type { Caller } from '../core/caller';
import { database, db } from '../core/db';
import { ownedPipeline } from './load-pipeline';
import { nextCronRun } from './pipeline-rules';
import { pipelineView } from './pipeline-views';

/** PATCH: pause or resume. Resuming a cron pipeline schedules its next run from now. */
export async function setPipelineStatus(caller: Caller, id: string, status: 'active' | 'paused') {
  const pipeline = await ownedPipeline(caller, id);
  const nextRunAt =
    pipeline.cron && status === 'active' ? nextCronRun(pipeline.cron, new Date()) : pipeline.cron ? null : pipeline.nextRunAt;
  const eventCursor =
    status === 'active' && pipeline.status === 'paused' && pipeline.triggerType === 'sse_event'
      ? BigInt((await database().sql.query<{ id: string | null }>('SELECT max(id)::text AS id FROM events'))[0]?.id ?? '0')
      : pipeline.eventCursor;
  const updated = await db().pipeline.update({ where: { id: pipeline.id }, data: { status, nextRunAt, eventCursor } });
  return pipelineView(updated);
}

import type { Address } from 'viem';
import { tierAtLeast, tierOfWallet } from '../agents/tiers';
import { database, db } from '../core/db';
import type { EventName } from '../events/emit';
import { canSee, type Viewer } from '../events/log';
import type { Pipeline } from '../core/db/generated/client';
import { log } from '../core/log';
import { PIPELINE_LIMITS } from '../schemas/pipeline';
import { nextCronRun } from './pipeline-rules';
import { runPipeline } from './run-pipeline';

// Scheduled triggers. Each firing is claimed with a compare-and-set on the pipeline row, so with any
// number of instances every cron tick and every event runs a pipeline once.

/** Runs every active cron pipeline whose next run is due at `now` (a test passes its own clock). */
export async function runDueCronPipelines(now: Date = new Date()): Promise<number> {
  const due = await db().pipeline.findMany({
    where: { triggerType: 'cron', status: 'active', nextRunAt: { lte: now } },
    orderBy: { nextRunAt: 'asc' },
    take: 100,
  });
  let ran = 0;
  for (const pipeline of due) {
    const next = pipeline.cron ? nextCronRun(pipeline.cron, now) : null;
    const claimed = await db().pipeline.updateMany({
      where: { id: pipeline.id, status: 'active', nextRunAt: pipeline.nextRunAt },
      data: { nextRunAt: next },
    });
    if (claimed.count !== 1) continue;
    await runPipeline(pipeline, 'cron', { scheduled_at: pipeline.nextRunAt!.toISOString(), fired_at: now.toISOString() }).catch(
      (error) => log.error({ pipeline_id: pipeline.id, err: error }, 'cron pipeline run failed'),
    );
    ran++;
  }
  return ran;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/**
 * trigger_filter matching: every key of the filter must be in the event's data with an equal value
 * (deep equality); a filter value that is an array matches when the data value equals any of its items.
 */
export function matchesFilter(filter: unknown, data: unknown): boolean {
  if (!filter || typeof filter !== 'object') return true;
  if (!data || typeof data !== 'object') return false;
  return Object.entries(filter).every(([key, expected]) => {
    if (!Object.prototype.hasOwnProperty.call(data, key)) return false;
    const actual = (data as Record<string, unknown>)[key];
    return Array.isArray(expected) && !Array.isArray(actual)
      ? expected.some((item) => deepEqual(item, actual))
      : deepEqual(expected, actual);
  });
}

/** Runs sse_event pipelines for the events appended since each one last looked. */
export async function runEventPipelines(): Promise<number> {
  const pipelines = await db().pipeline.findMany({ where: { triggerType: 'sse_event', status: 'active' }, take: 500 });
  let ran = 0;
  for (const pipeline of pipelines) ran += await runEventPipeline(pipeline);
  return ran;
}

/** The pipeline's owner as a viewer of the event log (the stream's and webhooks' audience and tier rules). */
async function ownerViewer(pipeline: Pipeline): Promise<Viewer> {
  const tier = await tierOfWallet(pipeline.ownerWallet as Address);
  return { wallet: pipeline.ownerWallet.toLowerCase(), entryTier: tierAtLeast(tier, 'entry') };
}

async function runEventPipeline(pipeline: Pipeline): Promise<number> {
  const events = await database().sql.query<{
    id: string;
    name: string;
    data: unknown;
    audience: string[] | null;
    created_at: Date;
  }>(`SELECT id::text, name, data, audience, created_at FROM events WHERE id > $1::bigint AND name = $2 ORDER BY id LIMIT 200`, [
    pipeline.eventCursor.toString(),
    pipeline.triggerEvent,
  ]);
  if (events.length === 0) return 0;
  // Only events the owner may see trigger it (and reach its steps): never another wallet's private event.
  const viewer = await ownerViewer(pipeline);
  const matching = events.filter(
    (event) =>
      canSee({ name: event.name as EventName, audience: event.audience ?? [] }, viewer) &&
      matchesFilter(pipeline.triggerFilter, event.data),
  );
  const runs = matching.slice(0, PIPELINE_LIMITS.eventRunsPerTick);
  // Past the per-tick bound the cursor stops after the last event run, so the rest wait their turn.
  const last = matching.length > runs.length ? runs.at(-1)!.id : events.at(-1)!.id;
  const claimed = await db().pipeline.updateMany({
    where: { id: pipeline.id, eventCursor: pipeline.eventCursor, status: 'active' },
    data: { eventCursor: BigInt(last) },
  });
  if (claimed.count !== 1) return 0;
  for (const event of runs) {
    const payload = {
      event: event.name,
      event_id: event.id,
      timestamp: new Date(event.created_at).toISOString(),
      data: event.data,
    };
    await runPipeline(pipeline, 'sse_event', payload).catch((error) =>
      log.error({ pipeline_id: pipeline.id, err: error }, 'event pipeline run failed'),
    );
  }
  return runs.length;
}

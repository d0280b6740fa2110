import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import { findAgent } from '../agents/find-agent';
import { priceAt } from '../agents/price';
import type { Caller } from '../core/caller';
import { database, db, lockUntilCommit, withTransaction } from '../core/db';
import type { Pipeline, PipelineRun } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { MICRO_PER_CLAW, microToClaw } from '../core/money';
import { PLATFORM_FEES } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { PIPELINE_LIMITS, PIPELINE_TRIGGER_EVENTS } from '../schemas/pipeline';

/** spec Limits: creating a pipeline costs 500 CLAW. */
export const PIPELINE_CREATION_FEE = 500n * MICRO_PER_CLAW;

export interface StepDef {
  id: string;
  name: string;
  agent_id: string;
  output_key: string;
  input_mapping?: Record<string, unknown>;
}

export interface CreatePipelineInput {
  name: string;
  triggerType: 'sse_event' | 'cron' | 'manual';
  triggerEvent?: string;
  triggerFilter?: Record<string, unknown>;
  cronExpression?: string;
  steps: StepDef[];
  maxSpendPerRun?: bigint;
}

const invalid = (field: string, message: string) =>
  new ApiError('invalid_request', `${field} ${message}`, { fields: { [field]: message } });

/** A validated 5-field UTC cron schedule (at most once a minute). */
export function cronSchedule(expression: string): Cron {
  try {
    return new Cron(expression, { paused: true, mode: '5-part', timezone: 'UTC' });
  } catch (error) {
    throw invalid('cron_expression', `is not a valid cron expression (${(error as Error).message.slice(0, 200)})`);
  }
}

export function nextCronRun(expression: string, after: Date): Date | null {
  return cronSchedule(expression).nextRun(after);
}

export function runView(run: PipelineRun) {
  return {
    run_id: run.id,
    pipeline_id: run.pipelineId,
    trigger: run.trigger as 'manual',
    status: run.status as 'running',
    payload: run.payload,
    steps: run.steps as never[],
    spent_claw: microToClaw(run.spent),
    error: run.error,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
  };
}

export function pipelineView(pipeline: Pipeline) {
  return {
    pipeline_id: pipeline.id,
    name: pipeline.name,
    owner_wallet: pipeline.ownerWallet,
    trigger_type: pipeline.triggerType as 'manual',
    trigger_event: pipeline.triggerEvent,
    trigger_filter: (pipeline.triggerFilter as Record<string, unknown> | null) ?? null,
    cron_expression: pipeline.cron,
    steps: pipeline.steps as unknown as StepDef[],
    max_spend_claw_per_run: pipeline.maxSpendPerRun === null ? null : microToClaw(pipeline.maxSpendPerRun),
    status: pipeline.status as 'active',
    next_run_at: pipeline.nextRunAt?.toISOString() ?? null,
    created_at: pipeline.createdAt.toISOString(),
  };
}

/**
 * POST /api/v1/pipelines: validates the trigger and every step (agents must exist), then charges the
 * 500 CLAW creation fee and creates the pipeline in one statement (402 when the caller cannot pay).
 */
export async function createPipeline(caller: Caller, input: CreatePipelineInput) {
  let triggerEvent: string | null = null;
  let cron: string | null = null;
  let nextRunAt: Date | null = null;
  if (input.triggerType === 'sse_event') {
    if (!input.triggerEvent || !(PIPELINE_TRIGGER_EVENTS as readonly string[]).includes(input.triggerEvent)) {
      throw invalid('trigger_event', `must be one of ${PIPELINE_TRIGGER_EVENTS.join(', ')} for an sse_event pipeline`);
    }
    triggerEvent = input.triggerEvent;
  } else if (input.triggerFilter) {
    throw invalid('trigger_filter', 'is only for sse_event pipelines');
  }
  if (input.triggerType === 'cron') {
    const expression = (input.cronExpression ?? input.triggerEvent ?? '').trim();
    if (!expression) throw invalid('cron_expression', 'is required for a cron pipeline (or put it in trigger_event)');
    nextRunAt = cronSchedule(expression).nextRun(new Date());
    if (!nextRunAt) throw invalid('cron_expression', 'never fires');
    cron = expression;
  } else if (input.cronExpression) {
    throw invalid('cron_expression', 'is only for cron pipelines');
  }
  if (input.triggerType === 'manual' && input.triggerEvent) throw invalid('trigger_event', 'is not used by manual pipelines');

  const ids = new Set<string>();
  const keys = new Set<string>();
  // Each step's price as the owner sees it now: a run never pays a step more (docs/spec-decisions.md, Pipelines).
  const stepPrices: Record<string, string> = {};
  let cost = 0n;
  const now = new Date();
  for (const [index, step] of input.steps.entries()) {
    if (ids.has(step.id)) throw invalid(`steps.${index}.id`, 'is used by another step');
    if (keys.has(step.output_key)) throw invalid(`steps.${index}.output_key`, 'is used by another step');
    ids.add(step.id);
    keys.add(step.output_key);
    const agent = await findAgent(step.agent_id);
    if (!agent) throw invalid(`steps.${index}.agent_id`, 'names no agent');
    stepPrices[step.id] = priceAt(agent, now).toString();
    cost += priceAt(agent, now);
  }
  // An event-triggered pipeline runs when others act: without a cap of its own it may spend at most its creation-time cost per run.
  const maxSpendPerRun = input.maxSpendPerRun ?? (input.triggerType === 'sse_event' ? cost : undefined);
  const [cursor] = await database().sql.query<{ id: string | null }>('SELECT max(id)::text AS id FROM events');
  const id = randomUUID();
  // The count and the creation under one per-wallet lock, so concurrent creates cannot pass the limit.
  await withTransaction(async (tx) => {
    await lockUntilCommit(tx, `pipelines:${caller.wallet.toLowerCase()}`);
    const [live] = await tx.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pipelines WHERE owner_wallet = $1 AND status <> 'deleted'`,
      [caller.wallet],
    );
    if (Number(live?.n ?? 0) >= PIPELINE_LIMITS.perWallet) {
      throw new ApiError('conflict', `A wallet may have at most ${PIPELINE_LIMITS.perWallet} pipelines; delete one first`);
    }
    await callerPays(
      {
        caller,
        amount: PIPELINE_CREATION_FEE,
        to: PLATFORM_FEES,
        reason: 'pipeline_creation',
        ref: { type: 'pipeline', id },
        alongside: (p) => [
          `pipeline AS (
          INSERT INTO pipelines (id, owner_wallet, owner_agent_id, name, trigger_type, trigger_event, trigger_filter, cron, steps,
            max_spend_per_run, status, next_run_at, event_cursor, step_prices, credential_id)
          SELECT ${p.add(id)}::uuid, ${p.add(caller.wallet)}, ${p.add(caller.agentId)}::uuid, ${p.add(input.name)}, ${p.add(input.triggerType)},
            ${p.add(triggerEvent)}, ${p.add(input.triggerFilter ? JSON.stringify(input.triggerFilter) : null)}::jsonb, ${p.add(cron)},
            ${p.add(JSON.stringify(input.steps))}::jsonb, ${p.add(maxSpendPerRun?.toString() ?? null)}::bigint, 'active',
            ${p.add(nextRunAt)}::timestamptz, ${p.add(cursor?.id ?? '0')}::bigint, ${p.add(JSON.stringify(stepPrices))}::jsonb,
            ${p.add(caller.credentialId)}::uuid
          FROM txn RETURNING id)`,
        ],
      },
      tx.sql,
    );
  });
  const created = await db().pipeline.findUniqueOrThrow({ where: { id } });
  return { ...pipelineView(created), creation_fee_claw: microToClaw(PIPELINE_CREATION_FEE) };
}

/** The caller's pipeline; another wallet's (or a deleted one) is 404. */
export async function ownedPipeline(caller: Caller, id: string): Promise<Pipeline> {
  const pipeline = await db().pipeline.findUnique({ where: { id } });
  if (!pipeline || pipeline.status === 'deleted' || pipeline.ownerWallet !== caller.wallet) throw ApiError.notFound('Pipeline');
  return pipeline;
}

export async function listPipelines(caller: Caller) {
  const pipelines = await db().pipeline.findMany({
    where: { ownerWallet: caller.wallet, status: { not: 'deleted' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
  return { pipelines: pipelines.map(pipelineView), total: pipelines.length };
}

export async function getPipeline(caller: Caller, id: string) {
  const pipeline = await ownedPipeline(caller, id);
  const runs = await db().pipelineRun.findMany({
    where: { pipelineId: pipeline.id },
    orderBy: [{ startedAt: 'desc' }, { id: 'asc' }],
    take: 20,
  });
  return { ...pipelineView(pipeline), recent_runs: runs.map(runView) };
}

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

/** DELETE: the pipeline stops for good and disappears from lists; its runs stay on record. No refund. */
export async function deletePipeline(caller: Caller, id: string) {
  const pipeline = await ownedPipeline(caller, id);
  await db().pipeline.update({ where: { id: pipeline.id }, data: { status: 'deleted', nextRunAt: null } });
  return { pipeline_id: pipeline.id, deleted: true as const };
}

import { randomUUID } from 'node:crypto';
import { findAgent } from '../agents/find-agent';
import { priceAt } from '../agents/price';
import type { Caller } from '../core/caller';
import { database, db, lockUntilCommit, withTransaction } from '../core/db';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { PLATFORM_FEES } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { PIPELINE_LIMITS, PIPELINE_TRIGGER_EVENTS } from '../schemas/pipeline';
import { PIPELINE_CREATION_FEE, cronSchedule, invalid } from './pipeline-rules';
import { type StepDef, pipelineView } from './pipeline-views';

export interface CreatePipelineInput {
  name: string;
  triggerType: 'sse_event' | 'cron' | 'manual';
  triggerEvent?: string;
  triggerFilter?: Record<string, unknown>;
  cronExpression?: string;
  steps: StepDef[];
  maxSpendPerRun?: bigint;
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

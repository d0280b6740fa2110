import type { Pipeline, PipelineRun } from '../core/db/generated/client';
import { microToClaw } from '../core/money';

export interface StepDef {
  id: string;
  name: string;
  agent_id: string;
  output_key: string;
  input_mapping?: Record<string, unknown>;
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

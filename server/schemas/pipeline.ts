import { z } from '@hono/zod-openapi';
import { addressOut, clawAmount, clawOut, jsonObject, timestamp } from './common';

// Pipelines (spec: Pipeline; POST costs 500 CLAW; each step charges the target's price).

export const PIPELINE_LIMITS = {
  maxSteps: 10,
  /** A whole run stops after this long. */
  runTimeoutMs: 120_000,
  /** Serialized size of input_mapping, trigger_filter and a run payload. */
  mappingBytes: 8 * 1024,
  filterBytes: 4 * 1024,
  payloadBytes: 64 * 1024,
  /** A step's output as stored in the run record (the full output still feeds later steps). */
  storedOutputBytes: 16 * 1024,
  /** Pipelines per wallet. */
  perWallet: 50,
  /** Event-triggered runs of one pipeline per scheduler tick. */
  eventRunsPerTick: 10,
} as const;

/** Events an sse_event pipeline may listen to: the public ones (docs/spec-decisions.md, Pipelines). */
export const PIPELINE_TRIGGER_EVENTS = [
  'agent.registered',
  'agent.tier_upgraded',
  'skill.published',
  'job.posted',
  'job.bid',
  'job.completed',
  'job.cancelled',
] as const;

const sized = <T extends z.ZodType>(schema: T, bytes: number) =>
  schema.refine((value) => JSON.stringify(value ?? null).length <= bytes, {
    message: `must serialize to at most ${bytes} bytes`,
  });

export const pipelineStep = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -'),
    name: z.string().trim().min(1).max(100),
    agent_id: z.string().min(1).max(64).openapi({ description: 'UUID or handle of a callable agent' }),
    output_key: z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be 1-64 letters, digits or _'),
    input_mapping: sized(jsonObject, PIPELINE_LIMITS.mappingBytes).optional().openapi({
      description:
        'The step’s input: each string value starting with "/" is a JSON pointer into {trigger, steps: {<output_key>: output}}; other values are literals ({"$literal": v} for a string starting with "/"). Omitted: the trigger payload for the first step, the previous output after it.',
    }),
  })
  .openapi('PipelineStep');

export const createPipelineBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    trigger_type: z.enum(['sse_event', 'cron', 'manual']),
    trigger_event: z
      .string()
      .max(100)
      .optional()
      .openapi({ description: 'sse_event: the event name; cron: the cron expression (or use cron_expression)' }),
    trigger_filter: sized(jsonObject, PIPELINE_LIMITS.filterBytes).optional(),
    cron_expression: z.string().max(100).optional().openapi({ description: 'Five fields, UTC; at most once a minute' }),
    steps: z.array(pipelineStep).min(1).max(PIPELINE_LIMITS.maxSteps),
    max_spend_claw_per_run: clawAmount.optional(),
  })
  .openapi('PipelineCreate');

export const patchPipelineBody = z.object({ status: z.enum(['active', 'paused']) }).openapi('PipelinePatch');

export const runPipelineBody = z
  .object({ payload: sized(jsonObject, PIPELINE_LIMITS.payloadBytes).default({}) })
  .openapi('PipelineRunRequest');

export const pipelineRunStep = z.strictObject({
  step_id: z.string(),
  name: z.string(),
  agent_id: z.string(),
  output_key: z.string(),
  status: z.enum(['succeeded', 'failed', 'skipped']),
  input: z.unknown(),
  output: z.unknown(),
  error: z.string().nullable(),
  invocation_id: z.string().nullable(),
  fee_claw: clawOut,
  duration_ms: z.number().int(),
});

export const pipelineRun = z
  .strictObject({
    run_id: z.uuid(),
    pipeline_id: z.uuid(),
    trigger: z.enum(['manual', 'cron', 'sse_event']),
    status: z.enum(['running', 'succeeded', 'failed']),
    payload: z.unknown(),
    steps: z.array(pipelineRunStep),
    spent_claw: clawOut,
    error: z.string().nullable(),
    started_at: timestamp,
    finished_at: timestamp.nullable(),
  })
  .openapi('PipelineRun');

const pipelineFields = {
  pipeline_id: z.uuid(),
  name: z.string(),
  owner_wallet: addressOut,
  trigger_type: z.enum(['sse_event', 'cron', 'manual']),
  trigger_event: z.string().nullable(),
  trigger_filter: jsonObject.nullable(),
  cron_expression: z.string().nullable(),
  steps: z.array(pipelineStep),
  max_spend_claw_per_run: clawOut.nullable(),
  status: z.enum(['active', 'paused']),
  next_run_at: timestamp.nullable(),
  created_at: timestamp,
};

export const pipeline = z.strictObject(pipelineFields).openapi('Pipeline');

export const pipelineCreated = z.strictObject({ ...pipelineFields, creation_fee_claw: clawOut }).openapi('PipelineCreated');

export const pipelineDetail = z.strictObject({ ...pipelineFields, recent_runs: z.array(pipelineRun) }).openapi('PipelineDetail');

export const pipelineList = z.strictObject({ pipelines: z.array(pipeline), total: z.number().int() }).openapi('PipelineList');

export const pipelineDeleted = z.strictObject({ pipeline_id: z.uuid(), deleted: z.literal(true) }).openapi('PipelineDeleted');

import { randomUUID } from 'node:crypto';
import { findAgent } from '../agents/find-agent';
import type { Caller } from '../core/caller';
import { db } from '../core/db';
import type { Pipeline } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { invokeAgent } from '../invoke/invoke-agent';
import { PIPELINE_LIMITS } from '../schemas/pipeline';
import { applyMapping, jsonLength, mappedLength, MappingError, type SizeMemo } from './mapping';
import { runView, type StepDef } from './pipelines';

// A run: each step invokes its agent through the router (charging its price to the pipeline's
// owner, refunded on failure as any invocation), in order, with its input mapped from the trigger
// payload and earlier outputs; the first failed step stops the run and the rest are skipped. Bounds:
// at most 10 steps, 120 s for the whole run (each call gets what is left, at most the router's
// limit), max_spend_claw_per_run, the owner's daily spend limit, and 1 MiB per step input.

interface StepRecord {
  step_id: string;
  name: string;
  agent_id: string;
  output_key: string;
  status: 'succeeded' | 'failed' | 'skipped';
  input: unknown;
  output: unknown;
  error: string | null;
  invocation_id: string | null;
  fee_claw: number;
  duration_ms: number;
}

const MAX_INPUT_BYTES = 1024 * 1024;

function stored(value: unknown, size: number): unknown {
  return size <= PIPELINE_LIMITS.storedOutputBytes ? value : { truncated: true, size_bytes: size };
}

/** The identity a run acts with: the pipeline's owner, with only agents.invoke and its agent's daily limit. */
async function runCaller(pipeline: Pipeline, manual: Caller | null): Promise<Caller> {
  const agent = pipeline.ownerAgentId ? await db().agent.findUnique({ where: { id: pipeline.ownerAgentId } }) : null;
  const limits = [manual?.maxSpendPerDay ?? null, agent?.maxSpendPerDay ?? null].filter((v): v is bigint => v !== null);
  return {
    via: 'bearer',
    wallet: pipeline.ownerWallet as Caller['wallet'],
    agentId: pipeline.ownerAgentId,
    agentPubkey: agent?.agentPubkey ?? null,
    scopes: ['agents.invoke'],
    credentialId: manual?.credentialId ?? null,
    maxSpendPerDay: limits.length ? limits.reduce((a, b) => (a < b ? a : b)) : null,
  };
}

export async function runPipeline(
  pipeline: Pipeline,
  trigger: 'manual' | 'cron' | 'sse_event',
  payload: Record<string, unknown>,
  manualCaller: Caller | null = null,
) {
  const id = randomUUID();
  const started = Date.now();
  await db().pipelineRun.create({
    data: { id, pipelineId: pipeline.id, trigger, status: 'running', payload: payload as object, steps: [] },
  });
  const caller = await runCaller(pipeline, manualCaller);
  const steps = pipeline.steps as unknown as StepDef[];
  const context: { trigger: unknown; steps: Record<string, unknown> } = { trigger: payload, steps: {} };
  const records: StepRecord[] = [];
  let spent = 0n;
  let failure: string | null = null;
  let previous: unknown = payload;
  const routerLimit = currentRuntime().config.INVOKE_TIMEOUT_MS;
  const sizes: SizeMemo = new Map();

  for (const step of steps) {
    const record: StepRecord = {
      step_id: step.id,
      name: step.name,
      agent_id: step.agent_id,
      output_key: step.output_key,
      status: 'skipped',
      input: null,
      output: null,
      error: null,
      invocation_id: null,
      fee_claw: 0,
      duration_ms: 0,
    };
    records.push(record);
    if (failure) continue;
    const stepStarted = Date.now();
    try {
      const remaining = PIPELINE_LIMITS.runTimeoutMs - (stepStarted - started);
      if (remaining <= 0) throw new Error(`the run passed its ${PIPELINE_LIMITS.runTimeoutMs / 1000} s limit`);
      // The size comes from the references, before anything is built: one output named many times
      // would otherwise make an input of hundreds of MB before the limit could be checked.
      const size = step.input_mapping
        ? mappedLength(step.input_mapping, context, MAX_INPUT_BYTES, sizes)
        : jsonLength(previous ?? null, MAX_INPUT_BYTES, sizes);
      if (size > MAX_INPUT_BYTES) {
        throw new Error(
          'the step input would be larger than 1 MiB (counted from what input_mapping references); nothing was sent',
        );
      }
      const input = step.input_mapping ? applyMapping(step.input_mapping, context) : previous;
      record.input = stored(input, size);
      if (pipeline.maxSpendPerRun !== null) {
        const target = await findAgent(step.agent_id);
        const price = target?.priceClawPerCall ?? 0n;
        if (spent + price > pipeline.maxSpendPerRun) {
          throw new Error(
            `the step would take the run past max_spend_claw_per_run (${microToClaw(pipeline.maxSpendPerRun)} CLAW)`,
          );
        }
      }
      const result = await invokeAgent(caller, {
        target: step.agent_id,
        payload: input,
        timeoutMs: Math.max(1, Math.min(remaining, routerLimit)),
        family: 'b',
        // The cap holds at the charge too: the price may change after it was read above.
        maxFee: pipeline.maxSpendPerRun === null ? undefined : pipeline.maxSpendPerRun - spent,
      });
      spent += result.fee;
      record.status = 'succeeded';
      record.invocation_id = result.invocationId;
      record.fee_claw = microToClaw(result.fee);
      record.output = stored(result.response, jsonLength(result.response ?? null, Number.POSITIVE_INFINITY, sizes));
      context.steps[step.output_key] = result.response;
      previous = result.response;
    } catch (error) {
      record.status = 'failed';
      if (error instanceof ApiError) {
        record.error = `${error.status} ${error.code}: ${error.message}`;
        record.invocation_id = (error.details.invocation_id as string | undefined) ?? null;
      } else if (error instanceof MappingError) {
        record.error = `input_mapping: ${error.message}`;
      } else {
        record.error = (error as Error).message;
        if (!(error instanceof Error) || !/run passed|larger than|max_spend/.test(error.message)) {
          log.error({ pipeline_id: pipeline.id, run_id: id, err: error }, 'pipeline step failed unexpectedly');
        }
      }
      failure = `step ${step.id} failed: ${record.error}`;
    }
    record.duration_ms = Date.now() - stepStarted;
  }
  const run = await db().pipelineRun.update({
    where: { id },
    data: {
      status: failure ? 'failed' : 'succeeded',
      steps: records as unknown as object,
      error: failure,
      spent,
      finishedAt: new Date(),
    },
  });
  return runView(run);
}

import { randomUUID } from 'node:crypto';
import { findAgent } from '../agents/find-agent';
import { priceAt } from '../agents/price';
import type { Caller } from '../core/caller';
import { database, db, withTransaction } from '../core/db';
import type { Pipeline } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { clawToMicro, microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { emit } from '../events/emit';
import { invokeAgent, MIN_INVOKE_TIMEOUT_MS } from '../invoke/invoke-agent';
import { PIPELINE_LIMITS } from '../schemas/pipeline';
import { applyMapping, jsonLength, mappedLength, MappingError, type SizeMemo } from './mapping';
import { runView, type StepDef } from './pipeline-views';

// A run: each step invokes its agent through the router (charging its price to the pipeline's
// owner, refunded on failure as any invocation), in order, with its input mapped from the trigger
// payload and earlier outputs; the first failed step stops the run and the rest are skipped. Bounds:
// at most 10 steps, 120 s for the whole run (each call gets what is left, at most the router's
// limit), max_spend_claw_per_run, each step's price when the pipeline was created (a raise stops the run
// and tells the owner: pipeline.run_stopped), the daily spend limits of the credential that created the
// pipeline, of the one that started a manual run and of the owner's agent, and 1 MiB per step input.

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

/** A step's agent now asks more than the price stored when the pipeline was created. */
class PriceRaised extends Error {
  constructor(
    readonly price: bigint,
    readonly saw: bigint,
  ) {
    super(
      `price_changed: the agent’s price rose to ${microToClaw(price)} CLAW from ${microToClaw(saw)} CLAW when the pipeline was created; nothing was charged`,
    );
  }
}

function stored(value: unknown, size: number): unknown {
  return size <= PIPELINE_LIMITS.storedOutputBytes ? value : { truncated: true, size_bytes: size };
}

/** The max_spend_claw_per_day of the credential (bearer token or API key) with this id, or null. */
async function credentialLimit(id: string | null): Promise<bigint | null> {
  if (!id) return null;
  // A revoked or expired credential's limit still holds for the pipelines it created.
  const [row] = await database().sql.query<{ limit: string | null }>(
    `SELECT max_spend_per_day::text AS limit FROM access_tokens WHERE id = $1::uuid
     UNION ALL SELECT max_spend_per_day::text FROM api_keys WHERE id = $1::uuid LIMIT 1`,
    [id],
  );
  return row?.limit ? BigInt(row.limit) : null;
}

/**
 * The identity a run acts with: the pipeline's owner, with only agents.invoke and the strictest daily
 * limit of the credential that created the pipeline, the one that started this run (manual) and its agent.
 */
async function runCaller(pipeline: Pipeline, manual: Caller | null): Promise<Caller> {
  const agent = pipeline.ownerAgentId ? await db().agent.findUnique({ where: { id: pipeline.ownerAgentId } }) : null;
  const limits = [
    await credentialLimit(pipeline.credentialId),
    manual?.maxSpendPerDay ?? null,
    agent?.maxSpendPerDay ?? null,
  ].filter((v): v is bigint => v !== null);
  return {
    via: 'bearer',
    wallet: pipeline.ownerWallet as Caller['wallet'],
    agentId: pipeline.ownerAgentId,
    agentPubkey: agent?.agentPubkey ?? null,
    scopes: ['agents.invoke'],
    credentialId: manual?.credentialId ?? pipeline.credentialId,
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
  // micro-CLAW per step id (empty for pipelines created before prices were stored).
  const stepPrices = pipeline.stepPrices as Record<string, string>;
  let stopped: { step: StepDef; price: bigint; saw: bigint } | null = null;
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
      // A step gets at least the router's minimum wait, or the run stops here.
      if (remaining < MIN_INVOKE_TIMEOUT_MS) {
        throw new Error(
          `the run passed its ${PIPELINE_LIMITS.runTimeoutMs / 1000} s limit (a step needs ${MIN_INVOKE_TIMEOUT_MS} ms)`,
        );
      }
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
      const target = await findAgent(step.agent_id);
      const price = target ? priceAt(target, new Date()) : 0n;
      const saw = stepPrices[step.id] === undefined ? undefined : BigInt(stepPrices[step.id]!);
      if (saw !== undefined && price > saw) throw new PriceRaised(price, saw);
      if (pipeline.maxSpendPerRun !== null && spent + price > pipeline.maxSpendPerRun) {
        throw new Error(`the step would take the run past max_spend_claw_per_run (${microToClaw(pipeline.maxSpendPerRun)} CLAW)`);
      }
      // The caps hold at the charge too: the price may change after it was read above.
      const caps = [saw, pipeline.maxSpendPerRun === null ? undefined : pipeline.maxSpendPerRun - spent].filter(
        (v): v is bigint => v !== undefined,
      );
      const result = await invokeAgent(caller, {
        target: step.agent_id,
        payload: input,
        timeoutMs: Math.min(remaining, routerLimit),
        family: 'b',
        maxFee: caps.length ? caps.reduce((a, b) => (a < b ? a : b)) : undefined,
      });
      spent += result.fee;
      record.status = 'succeeded';
      record.invocation_id = result.invocationId;
      record.fee_claw = microToClaw(result.fee);
      record.output = stored(result.response, jsonLength(result.response ?? null, Number.POSITIVE_INFINITY, sizes));
      context.steps[step.output_key] = result.response;
      previous = result.response;
    } catch (caught) {
      let error = caught;
      // The router's own cap check (a raise between the read above and the charge) is the same stop.
      const saw = stepPrices[step.id] === undefined ? undefined : BigInt(stepPrices[step.id]!);
      if (error instanceof ApiError && error.code === 'price_changed' && saw !== undefined) {
        const price = clawToMicro(Number(error.details.price_claw)) ?? 0n;
        if (price > saw) error = new PriceRaised(price, saw);
      }
      record.status = 'failed';
      if (error instanceof PriceRaised) {
        record.error = error.message;
        stopped = { step, price: error.price, saw: error.saw };
      } else if (error instanceof ApiError) {
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
  // The run's record and, when a raised price stopped it, the owner's notice commit together.
  const run = await withTransaction(async (tx) => {
    const finished = await tx.prisma.pipelineRun.update({
      where: { id },
      data: {
        status: failure ? 'failed' : 'succeeded',
        steps: records as unknown as object,
        error: failure,
        spent,
        finishedAt: new Date(),
      },
    });
    if (stopped) {
      await emit(
        'pipeline.run_stopped',
        {
          pipeline_id: pipeline.id,
          run_id: id,
          trigger,
          reason: 'price_changed',
          step_id: stopped.step.id,
          agent_id: stopped.step.agent_id,
          price_claw: microToClaw(stopped.price),
          max_price_claw: microToClaw(stopped.saw),
          spent_claw: microToClaw(spent),
        },
        tx.sql,
        { audience: [pipeline.ownerWallet] },
      );
    }
    return finished;
  });
  return runView(run);
}

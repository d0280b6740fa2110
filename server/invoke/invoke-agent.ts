import { randomUUID } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { loadOneAgentMetrics } from '../agents/agent-metrics';
import { requireAgent } from '../agents/find-agent';
import { holdAccount, walletAccount } from '../credits/accounts';
import { post, transfer } from '../credits/ledger';
import { microToClaw } from '../credits/money';
import { effectiveDailyLimit } from '../credits/spend-limit';
import { db } from '../db';
import type { Agent } from '../db/generated/client';
import { emit } from '../events/emit';
import type { Caller } from '../http/caller';
import { ApiError } from '../http/errors';
import { OutboundError, outboundRequest } from '../net/outbound';
import { currentRuntime } from '../runtime';
import { deriveEdgesInto } from '../trust/derive-edges';
import { invalidateTrustViews } from '../trust/trust-cache';

/** The fixed router identifier sent as X-Service-Via. */
export const ROUTER_ID = 'vouchsafe-router/1';

const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new WeakMap<object, ValidateFunction>();

function validatePayload(schema: object, payload: unknown): void {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  if (!validate(payload)) {
    const fields: Record<string, string> = {};
    for (const error of validate.errors ?? []) fields[error.instancePath || '/'] ??= error.message ?? 'invalid';
    throw new ApiError('invalid_request', 'The payload does not match the target agent’s invoke_schema', { fields });
  }
}

/** Throws 422 unless the agent can be invoked now. */
export function assertCallable(agent: Agent): asserts agent is Agent & { invokeUrl: string } {
  if (agent.status !== 'active') throw new ApiError('not_callable', 'The target agent is paused', { status: agent.status });
  if (!agent.isCallable) throw new ApiError('not_callable', 'The target agent is not callable (is_callable is false)');
  if (!agent.invokeUrl) throw new ApiError('not_callable', 'The target agent has no invoke_url');
}

export interface InvokeInput {
  target: string;
  payload: unknown;
  timeoutMs: number;
  family: 'a' | 'b';
}

export interface InvokeResult {
  invocationId: string;
  target: Agent;
  fee: bigint;
  durationMs: number;
  httpStatus: number;
  response: unknown;
}

function parseBody(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString('utf8');
  if (contentType?.includes('json') || /^\s*[[{"]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      /* fall through to text */
    }
  }
  return text;
}

/**
 * The router: charges the target's price into escrow (402 and nothing forwarded when the
 * caller cannot pay), forwards the payload with the caller's identity, then pays the target's
 * owner on a 2xx answer or refunds the caller in full on an error (502) or timeout (504).
 */
export async function invokeAgent(caller: Caller, input: InvokeInput): Promise<InvokeResult> {
  const target = await requireAgent(input.target);
  assertCallable(target);
  if (target.invokeSchema && typeof target.invokeSchema === 'object') validatePayload(target.invokeSchema, input.payload);

  const { config } = currentRuntime();
  const id = randomUUID();
  const fee = target.priceClawPerCall;
  const escrow = holdAccount('invocation', id);
  const chargedAt = new Date();
  // The charge comes first and is all-or-nothing: a 402 leaves no trace.
  if (fee > 0n) {
    await post({
      reason: 'invocation_charge',
      refType: 'invocation',
      refId: id,
      postings: [
        { account: walletAccount(caller.wallet), amount: -fee },
        { account: escrow, amount: fee },
      ],
      spend: { wallet: caller.wallet, amount: fee, limit: await effectiveDailyLimit(caller) },
    });
  }
  await db().invocation.create({
    data: {
      id,
      callerWallet: caller.wallet,
      callerAgentId: caller.agentId,
      targetAgentId: target.id,
      targetWallet: target.ownerWallet,
      fee,
      status: 'pending',
      family: input.family,
    },
  });

  const trust = caller.agentId ? (await loadOneAgentMetrics(await requireAgent(caller.agentId))).trust.total : 0;
  const started = performance.now();
  let outcome: { status: 'success' | 'error' | 'timeout'; httpStatus: number; response: unknown; error?: string };
  try {
    const response = await outboundRequest(target.invokeUrl, {
      method: 'POST',
      body: JSON.stringify(input.payload ?? null),
      headers: {
        'content-type': 'application/json',
        'x-service-caller-wallet': caller.wallet,
        'x-service-caller-agent-id': caller.agentId ?? '',
        'x-service-trust-score': String(trust),
        'x-service-via': ROUTER_ID,
        'x-service-invocation-id': id,
      },
      timeoutMs: Math.min(input.timeoutMs, config.INVOKE_TIMEOUT_MS),
      allowPrivate: config.ALLOW_PRIVATE_URLS,
    });
    const body = parseBody(response.body, response.headers['content-type']);
    outcome =
      response.status >= 200 && response.status < 300
        ? { status: 'success', httpStatus: response.status, response: body }
        : { status: 'error', httpStatus: response.status, response: body, error: `target answered ${response.status}` };
  } catch (error) {
    const kind = error instanceof OutboundError ? error.kind : 'network';
    outcome = {
      status: kind === 'timeout' ? 'timeout' : 'error',
      httpStatus: 0,
      response: null,
      error: (error as Error).message,
    };
  }
  const durationMs = Math.round(performance.now() - started);

  if (fee > 0n) {
    // Settle the escrow: pay the owner, or give the caller everything back (and its daily spend).
    await (outcome.status === 'success'
      ? transfer(escrow, walletAccount(target.ownerWallet), fee, {
          reason: 'invocation_payment',
          refType: 'invocation',
          refId: id,
        })
      : post({
          reason: 'invocation_refund',
          refType: 'invocation',
          refId: id,
          postings: [
            { account: escrow, amount: -fee },
            { account: walletAccount(caller.wallet), amount: fee },
          ],
          unspend: { wallet: caller.wallet, amount: fee, day: chargedAt },
        }));
  }
  await db().$transaction(async (tx) => {
    await tx.invocation.update({
      where: { id },
      data: {
        status: outcome.status,
        httpStatus: outcome.httpStatus || null,
        durationMs,
        error: outcome.error,
        completedAt: new Date(),
      },
    });
    await emit(
      'agent.invoked',
      {
        invocation_id: id,
        agent_id: target.id,
        target_agent_id: target.id,
        caller_wallet: caller.wallet,
        caller_agent_id: caller.agentId,
        status: outcome.status,
        fee_claw: microToClaw(outcome.status === 'success' ? fee : 0n),
        duration_ms: durationMs,
      },
      tx,
    );
  });

  if (outcome.status === 'success' && caller.agentId) {
    // A successful call is a partnership edge in the connection graph.
    await deriveEdgesInto(target.id);
    invalidateTrustViews(target.id);
  }

  if (outcome.status === 'timeout') {
    throw new ApiError('upstream_timeout', 'The target agent did not answer in time; the fee was refunded', {
      invocation_id: id,
      refunded_claw: microToClaw(fee),
    });
  }
  if (outcome.status === 'error') {
    throw new ApiError('upstream_error', 'The target agent returned an error; the fee was refunded', {
      invocation_id: id,
      target_status: outcome.httpStatus || null,
      target_error: outcome.error,
      target_response: outcome.response,
      refunded_claw: microToClaw(fee),
    });
  }
  return { invocationId: id, target, fee, durationMs, httpStatus: outcome.httpStatus, response: outcome.response };
}

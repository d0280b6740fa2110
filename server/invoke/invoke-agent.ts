import { randomUUID } from 'node:crypto';
import { loadOneAgentMetrics } from '../trust/agent-metrics';
import { findAgent } from '../agents/find-agent';
import { priceAt } from '../agents/price';
import { validateInvokePayload } from '../agents/invoke-schema';
import { sharedCache } from '../core/shared-state';
import { holdAccount, walletAccount, WORLD_X402 } from '../credits/accounts';
import { post, type Posting } from '../credits/ledger';
import { releaseHold } from '../credits/release-hold';
import { callerPays } from '../credits/caller-pays';
import { microToClaw } from '../core/money';
import { database } from '../core/db';
import type { Agent } from '../core/db/generated/client';
import { wake } from '../events/emit';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { OutboundError, outboundRequest } from '../net/outbound';
import { currentRuntime } from '../core/runtime';
import { log } from '../core/log';
import { recordPartnership } from '../trust/derive-edges';
import { answerDepthExceeds, MAX_ANSWER_DEPTH } from './answer-depth';
import { INVOCATION_CHARGES, INVOCATION_SETTLEMENTS, type InvocationCharge, type InvocationSettlement } from './invocation-rows';
import { recordFreeCall } from './record-free-calls';
import { signForwardedRequest } from './sign-forwarded';
import { clawForUsdc, usdcForClaw, x402Context, type X402Context } from '../x402/context';
import {
  acceptPayment,
  boughtCte,
  hasPayment,
  offerX402,
  paymentResponseHeaders,
  recordAnswer,
  settlePayment,
  type AcceptedPayment,
  type PaidResource,
} from '../x402/pay';

/** The fixed router identifier sent as X-Service-Via. */
export const ROUTER_ID = 'vouchsafe-router/1';

/** The shortest wait the router gives a target (docs/spec-decisions.md, Invocation): a shorter timeout_ms is raised to it. */
export const MIN_INVOKE_TIMEOUT_MS = 1_000;

// The router's hot path keeps every statement it can off the database: targets are cached for
// 2 s and callers' trust scores for 30 s, both dropped the moment a change commits anywhere.
const targets = sharedCache<Agent | null>('invoke.targets', { ttlMs: 2_000, dropOn: ['agent'] });
const callerTrust = sharedCache<{ spec: number; propagated: number }>('invoke.caller-trust', {
  ttlMs: 30_000,
  dropOn: ['agent', 'trust'],
});

/**
 * Whether charges and settlements go in batches (ledger-batch.ts): on PostgreSQL. Not on PGlite, whose one
 * embedded connection runs in this thread: a long batch statement there holds the event loop (forwards time out).
 */
const groupCommit = () => database().kind === 'postgres';

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
  /**
   * The most the caller agreed to pay for this call (max_price_claw, a pipeline step's price at creation or
   * what is left of max_spend_claw_per_run): a higher price is 409 price_changed and nothing is charged.
   */
  maxFee?: bigint;
  /**
   * The HTTP request, for x402 (docs/payments.md): with a PAYMENT-SIGNATURE header (`header`) the price is paid
   * in USDC instead of CLAW; a caller who cannot pay in CLAW gets a 402 with a PAYMENT-REQUIRED offer. The REST
   * door builds the web Request on first use (0.1 ms of a paid call's CPU): it is read only when one of those
   * happens.
   */
  http?: { header(name: string): string | null; request(): Request };
}

export interface InvokeResult {
  invocationId: string;
  target: Agent;
  fee: bigint;
  durationMs: number;
  httpStatus: number;
  response: unknown;
  /** PAYMENT-RESPONSE when the call was paid over x402. */
  headers: Record<string, string>;
}

/** What an x402-paid invocation keeps for a retry with the same payment-identifier. */
interface StoredInvocation {
  invocation_id: string;
  target_agent_id: string;
  fee: string;
  duration_ms: number;
  http_status: number;
  response: unknown;
}

/** The x402 resource of an invocation: the target's CLAW price in USDC at X402_CLAW_PER_USDC (rounded up). */
function invocationResource(context: X402Context, request: Request, target: Agent, fee: bigint): PaidResource {
  return {
    kind: 'invoke',
    request,
    amount: usdcForClaw(context, fee),
    description: `Invoke agent ${target.handle ?? target.id} (${microToClaw(fee)} CLAW)`,
  };
}

/** What a caller learns about a failed forward (docs/spec-decisions.md). */
export type FailureReason = 'target_unreachable' | 'target_error' | 'target_timeout';

type Outcome = { status: 'success' | 'error' | 'timeout'; httpStatus: number; response: unknown; error?: FailureReason };

/** The router's wait for a call: the caller's timeout within [MIN_INVOKE_TIMEOUT_MS, INVOKE_TIMEOUT_MS]. */
export function routerWaitMs(requested: number): number {
  const limit = currentRuntime().config.INVOKE_TIMEOUT_MS;
  return Math.min(limit, Math.max(MIN_INVOKE_TIMEOUT_MS, requested));
}

const TOO_DEEP = Symbol('too deep');

function parseBody(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString('utf8');
  if (contentType?.includes('json') || /^\s*[[{"]/.test(text)) {
    // JSON nested past what the router forwards is not parsed (it could not be serialized back).
    if (answerDepthExceeds(text, MAX_ANSWER_DEPTH)) return TOO_DEEP;
    try {
      return JSON.parse(text);
    } catch {
      /* fall through to text */
    }
  }
  return text;
}

/** A forward ready to send: the body and the signed headers. */
interface PreparedForward {
  body: string;
  headers: Record<string, string>;
}

/**
 * The caller's identity headers and the RFC 9421 signature over them. Computed while the charge's statement
 * is on its way to the database (it needs nothing the charge decides), so the signature costs the call no wait.
 */
async function prepareForward(
  target: Agent & { invokeUrl: string },
  caller: Caller,
  id: string,
  input: InvokeInput,
  waitMs: number,
): Promise<PreparedForward> {
  const trust = caller.agentId
    ? await callerTrust().get(caller.agentId, async () => {
        const metrics = await loadOneAgentMetrics({ id: caller.agentId! }, database().sql);
        return { spec: metrics.trust.total, propagated: metrics.propagatedTrust };
      })
    : { spec: 0, propagated: 0 };
  const body = JSON.stringify(input.payload ?? null);
  const identity: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-caller-wallet': caller.wallet,
    'x-service-trust-score': String(trust.spec),
    'x-service-propagated-trust': String(trust.propagated),
    'x-service-via': ROUTER_ID,
    'x-service-invocation-id': id,
    // When the router stops waiting (unix ms; signed with the rest): a target may refuse work it cannot finish by then.
    'x-service-deadline': String(Date.now() + waitMs),
  };
  // Absent rather than empty when the caller has no agent, so that the signature covers what is sent.
  if (caller.agentId) identity['x-service-caller-agent-id'] = caller.agentId;
  const headers = await signForwardedRequest(
    { method: 'POST', url: target.invokeUrl, headers: identity, body, nonce: id },
    database().sql,
  );
  return { body, headers };
}

async function forward(
  target: Agent & { invokeUrl: string },
  id: string,
  prepared: PreparedForward,
  waitMs: number,
): Promise<Outcome> {
  const { config } = currentRuntime();
  try {
    const response = await outboundRequest(target.invokeUrl, {
      method: 'POST',
      body: prepared.body,
      headers: prepared.headers,
      timeoutMs: waitMs,
      allowPrivate: config.ALLOW_PRIVATE_URLS,
    });
    const answer = parseBody(response.body, response.headers['content-type']);
    if (answer === TOO_DEEP) {
      log.warn({ invocation_id: id, target_agent_id: target.id, status: response.status }, 'answer nested too deep');
      return { status: 'error', httpStatus: response.status, response: null, error: 'target_error' };
    }
    return response.status >= 200 && response.status < 300
      ? { status: 'success', httpStatus: response.status, response: answer }
      : { status: 'error', httpStatus: response.status, response: answer, error: 'target_error' };
  } catch (error) {
    // The caller gets a fixed reason; the network detail (names, addresses, errno) stays in the log.
    const kind = error instanceof OutboundError ? error.kind : 'network';
    const reason: FailureReason =
      kind === 'timeout' ? 'target_timeout' : kind === 'too_large' ? 'target_error' : 'target_unreachable';
    log.warn({ invocation_id: id, target_agent_id: target.id, kind, err: (error as Error).message }, 'invocation failed');
    return { status: kind === 'timeout' ? 'timeout' : 'error', httpStatus: 0, response: null, error: reason };
  }
}

/**
 * The router: charges the target's price into escrow (402 and nothing forwarded when the
 * caller cannot pay), forwards the payload with the caller's identity, then pays the target's
 * owner on a 2xx answer or refunds the caller in full on an error (502) or timeout (504).
 */
export async function invokeAgent(caller: Caller, input: InvokeInput): Promise<InvokeResult> {
  const target = await targets().get(input.target.toLowerCase(), () => findAgent(input.target));
  if (!target) throw ApiError.notFound('Agent');
  assertCallable(target);
  if (target.invokeSchema && typeof target.invokeSchema === 'object')
    validateInvokePayload(target.invokeSchema as Record<string, unknown>, input.payload);

  const { sql } = database();
  const id = randomUUID();
  // The price checked against the cap is the one charged (one read, below).
  const fee = priceAt(target, new Date());
  if (input.maxFee !== undefined && fee > input.maxFee) {
    throw new ApiError('price_changed', 'The agent’s price is above the most this call may pay; nothing was charged', {
      price_claw: microToClaw(fee),
      max_price_claw: microToClaw(input.maxFee),
    });
  }
  const waitMs = routerWaitMs(input.timeoutMs);
  const escrow = holdAccount('invocation', id);
  // The signed forward is prepared while the charge is on its way (used only once the charge committed).
  const preparing = prepareForward(target, caller, id, input, waitMs).then(
    (prepared) => ({ prepared, error: null }),
    (error: unknown) => ({ prepared: null, error }),
  );
  const chargedAt = new Date();

  // x402: the price paid in USDC (settled before anything is forwarded, so no call runs unpaid).
  const http = fee > 0n ? input.http : undefined;
  const x402 = http && hasPayment({ get: (name) => http.header(name) }) ? await x402Context() : null;
  let paid: { payment: AcceptedPayment; headers: Record<string, string> } | null = null;
  if (x402 && http) {
    const resource = invocationResource(x402, http.request(), target, fee);
    const accepted = await acceptPayment(x402, resource, caller.wallet);
    if (accepted.kind === 'replay') {
      const stored = accepted.body as StoredInvocation;
      return {
        invocationId: stored.invocation_id,
        target,
        fee: BigInt(stored.fee),
        durationMs: stored.duration_ms,
        httpStatus: stored.http_status,
        response: stored.response,
        headers: accepted.headers,
      };
    }
    const settlement = await settlePayment(x402, resource, accepted.payment);
    paid = { payment: accepted.payment, headers: paymentResponseHeaders(settlement) };
  }
  // The invocation's record goes in the charge's statement (invocation-rows.ts).
  const charged: InvocationCharge = {
    id,
    callerWallet: caller.wallet,
    callerAgentId: caller.agentId ?? null,
    targetAgentId: target.id,
    targetWallet: target.ownerWallet,
    fee,
    family: input.family,
    createdAt: chargedAt,
  };
  if (paid && x402) {
    // The USDC bought CLAW: the price goes into escrow as for a CLAW charge, the rounding's remainder to
    // the caller, the payment's record and the invocation's in the same statement.
    const payment = paid.payment;
    const bought = clawForUsdc(x402, BigInt(payment.requirements.amount));
    const postings: Posting[] = [
      { account: WORLD_X402, amount: -bought },
      { account: escrow, amount: fee },
    ];
    if (bought > fee) postings.push({ account: walletAccount(caller.wallet), amount: bought - fee });
    await post(
      {
        reason: 'invocation_charge_x402',
        refType: 'invocation',
        refId: id,
        idempotencyKey: `x402:${payment.id}`,
        postings,
        alongside: (p, scope) => [
          ...INVOCATION_CHARGES.ctes(p, [charged], scope),
          boughtCte(p, payment, bought, { type: 'invocation', id }),
        ],
      },
      sql,
    );
  } else if (fee > 0n) {
    // The charge and the invocation's record are one statement; a 402 leaves no trace.
    try {
      await callerPays(
        {
          caller,
          amount: fee,
          to: escrow,
          reason: 'invocation_charge',
          payee: { agentId: target.id, wallet: target.ownerWallet },
          ref: { type: 'invocation', id },
          alongside: { kind: INVOCATION_CHARGES, row: charged },
          // With the other calls' charges and settlements waiting for the statement in flight (ledger-batch.ts).
          batch: groupCommit(),
        },
        sql,
      );
    } catch (error) {
      // Cannot pay in CLAW: the same 402, offering the price in USDC over x402.
      // (Not for a spend policy's refusal: paying in USDC would go around the owner's policy.)
      const cannotPay = error instanceof ApiError && ['insufficient_credits', 'daily_limit_exceeded'].includes(error.code);
      if (cannotPay && http) {
        const context = await x402Context();
        throw context ? await offerX402(error, context, invocationResource(context, http.request(), target, fee)) : error;
      }
      throw error;
    }
  }

  // From here the call settles whatever happens to the caller's connection: an answer in time is paid.
  const { prepared, error: unprepared } = await preparing;
  const started = performance.now();
  let outcome: Outcome;
  if (prepared) outcome = await forward(target, id, prepared, waitMs);
  else {
    log.warn({ invocation_id: id, target_agent_id: target.id, err: (unprepared as Error)?.message }, 'invocation not signed');
    outcome = { status: 'error', httpStatus: 0, response: null, error: 'target_unreachable' };
  }
  const durationMs = Math.round(performance.now() - started);

  // Settling the escrow, the invocation's status and its agent.invoked event are one statement, committed
  // asynchronously (core/db/async-commit.ts): readers see it at once; should a database crash lose it, the
  // invocation is left pending with its fee in escrow and the stale-invocation sweep refunds the caller
  // (docs/spec-decisions.md, Durability of commits). The charge before the forward stays durable.
  const event = {
    invocation_id: id,
    agent_id: target.id,
    target_agent_id: target.id,
    caller_wallet: caller.wallet,
    caller_agent_id: caller.agentId,
    status: outcome.status,
    fee_claw: microToClaw(outcome.status === 'success' ? fee : 0n),
    duration_ms: durationMs,
  };
  // An invocation is private: the caller and the target's owner see it (docs/spec-decisions.md).
  const audience = { audience: [caller.wallet, target.ownerWallet] };
  // A successful call is a partnership edge in the connection graph, written beside the settlement (not after it).
  const partnership = outcome.status === 'success' && caller.agentId ? recordPartnership(caller.agentId, target.id, sql) : null;
  partnership?.catch(() => {});
  if (fee > 0n) {
    // Pay the owner, or give the caller everything back (and its daily spend).
    const payee = walletAccount(outcome.status === 'success' ? target.ownerWallet : caller.wallet);
    await releaseHold(
      {
        hold: { type: 'invocation', id },
        to: [{ account: payee, amount: fee }],
        reason: outcome.status === 'success' ? 'invocation_payment' : 'invocation_refund',
        ref: { type: 'invocation', id },
        // A call paid over x402 counted nothing against the daily CLAW spend.
        refundsSpendOf: outcome.status === 'success' || paid ? undefined : { wallet: caller.wallet, day: chargedAt },
        alongside: {
          kind: INVOCATION_SETTLEMENTS,
          row: {
            id,
            status: outcome.status,
            httpStatus: outcome.httpStatus || null,
            durationMs,
            error: outcome.error ?? null,
            event,
            audience: audience.audience,
          } satisfies InvocationSettlement,
        },
        batch: groupCommit(),
        asyncCommit: true,
      },
      sql,
    );
    wake('agent.invoked');
  } else {
    // A free call moves no money and has nothing to settle: its record, already final, and its event are
    // written once it is answered, with the other free calls' in flight (docs/spec-decisions.md, What a call waits for).
    await recordFreeCall(
      {
        id,
        callerWallet: caller.wallet,
        callerAgentId: caller.agentId ?? null,
        targetAgentId: target.id,
        targetWallet: target.ownerWallet,
        status: outcome.status,
        httpStatus: outcome.httpStatus || null,
        durationMs,
        error: outcome.error ?? null,
        family: input.family,
        createdAt: chargedAt,
        event,
        audience: audience.audience,
      },
      sql,
      groupCommit(),
    );
  }
  await partnership;

  const stored: StoredInvocation = {
    invocation_id: id,
    target_agent_id: target.id,
    fee: fee.toString(),
    duration_ms: durationMs,
    http_status: outcome.httpStatus,
    response: outcome.response,
  };
  const failure = failureOf(outcome, id, fee, paid !== null);
  if (paid) await recordAnswer(paid.payment, failure?.status ?? 200, failure ? failure.toBody() : stored);
  if (failure) throw paid ? new ApiError(failure.code, failure.message, failure.details, paid.headers) : failure;
  return {
    invocationId: id,
    target,
    fee,
    durationMs,
    httpStatus: outcome.httpStatus,
    response: outcome.response,
    headers: paid?.headers ?? {},
  };
}

/** The error a failed forward answers (the fee was refunded: in CLAW to the caller's balance when paid over x402). */
function failureOf(outcome: Outcome, id: string, fee: bigint, x402: boolean): ApiError | null {
  const refund = x402 ? { refunded_claw: microToClaw(fee), refunded_to: 'claw_balance' } : { refunded_claw: microToClaw(fee) };
  if (outcome.status === 'timeout') {
    return new ApiError('upstream_timeout', 'The target agent did not answer in time; the fee was refunded', {
      invocation_id: id,
      reason: 'target_timeout',
      ...refund,
    });
  }
  if (outcome.status === 'error') {
    const unreachable = outcome.error === 'target_unreachable';
    return new ApiError(
      'upstream_error',
      `${unreachable ? 'The target agent could not be reached' : 'The target agent returned an error'}; the fee was refunded`,
      {
        invocation_id: id,
        reason: outcome.error ?? 'target_error',
        target_status: outcome.httpStatus || null,
        target_error: outcome.error ?? 'target_error',
        target_response: outcome.response,
        ...refund,
      },
    );
  }
  return null;
}

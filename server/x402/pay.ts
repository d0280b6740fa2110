import { randomUUID } from 'node:crypto';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { declarePaymentIdentifierExtension, extractAndValidatePaymentIdentifier } from '@x402/extensions/payment-identifier';
import { formatUnits, getAddress, isAddress, isHex, type Address, type Hex } from 'viem';
import { rpcError } from '../chain/client';
import { database } from '../core/db';
import type { SqlParams } from '../core/db/sql-runner';
import { ApiError, type ErrorCode } from '../core/errors';
import { log } from '../core/log';
import { authorizationUsed, USDC_UNITS, type X402Context } from './context';

// One x402 payment for one request (docs/payments.md). The packages verify and settle; what they leave
// to the resource server is done here: refusing an authorization seen before (our own record, unique
// by payer and nonce, besides the token's authorizationState), the payment-identifier extension's
// idempotency (the package only declares it: a retry with the same id gets the first answer and pays
// nothing), and recording each payment for the payer's activity.

export const PAYMENT_SIGNATURE = 'payment-signature';

export type PaidKind = 'analyze' | 'invoke' | 'topup';

export interface PaidResource {
  kind: PaidKind;
  /** The request (its URL is the x402 resource; its PAYMENT-SIGNATURE header the payment). */
  request: Request;
  description: string;
  /** USDC units (6 decimals). */
  amount: bigint;
}

export interface AcceptedPayment {
  id: string;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  payer: Address;
  paymentId: string | null;
  settlement: SettleResponse | null;
}

export function hasPayment(headers: Pick<Headers, 'get'>): boolean {
  return headers.get(PAYMENT_SIGNATURE) !== null || headers.get('x-payment') !== null;
}

const DECLARED = () => ({ 'payment-identifier': declarePaymentIdentifierExtension(false) });

function resourceUrl(request: Request): string {
  const url = new URL(request.url);
  return `${url.origin}${url.pathname}`;
}

async function requirementsFor(context: X402Context, resource: PaidResource): Promise<PaymentRequirements[]> {
  return context.server.buildPaymentRequirements({
    scheme: 'exact',
    network: context.network,
    payTo: context.payTo,
    price: { asset: context.asset, amount: resource.amount.toString(), extra: { ...context.domain } },
    maxTimeoutSeconds: 300,
  });
}

/** What a 402 says about the price, in the body's details (the header carries the same, encoded). */
export function priceDetails(context: X402Context, amount: bigint) {
  return {
    x402: {
      x402_version: 2,
      scheme: 'exact',
      network: context.network,
      asset: context.asset,
      pay_to: context.payTo,
      amount: amount.toString(),
      price_usdc: formatUnits(amount, USDC_UNITS),
    },
  };
}

/**
 * A 402 (or another refusal) carrying a v2 PAYMENT-REQUIRED header that offers `resource` for its
 * price; the body stays the spec's error shape.
 */
export async function paymentRequired(
  context: X402Context,
  resource: PaidResource,
  options: {
    code?: ErrorCode;
    message?: string;
    reason?: string;
    details?: Record<string, unknown>;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiError> {
  const required = await context.server.createPaymentRequiredResponse(
    await requirementsFor(context, resource),
    { url: resourceUrl(resource.request), description: resource.description, mimeType: 'application/json' },
    options.reason ?? 'Payment required',
    DECLARED(),
  );
  return new ApiError(
    options.code ?? 'payment_required',
    options.message ?? `Payment required: ${formatUnits(resource.amount, USDC_UNITS)} USDC over x402`,
    {
      ...(options.details ?? {}),
      ...(options.reason ? { reason: options.reason } : {}),
      ...priceDetails(context, resource.amount),
    },
    { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(required), 'Cache-Control': 'no-store', ...(options.headers ?? {}) },
  );
}

/** The same error with the x402 offer added (a CLAW 402 that could be paid in USDC instead). */
export async function offerX402(error: ApiError, context: X402Context | null, resource: PaidResource): Promise<ApiError> {
  if (!context || resource.amount <= 0n) return error;
  const offer = await paymentRequired(context, resource);
  return new ApiError(
    error.code,
    error.message,
    { ...error.details, ...priceDetails(context, resource.amount) },
    { ...error.headers, ...offer.headers },
  );
}

const refuse = (
  context: X402Context,
  resource: PaidResource,
  reason: string,
  message: string,
  details: Record<string, unknown> = {},
) => paymentRequired(context, resource, { code: 'payment_invalid', reason, message, details });

function decode(header: string): PaymentPayload | null {
  try {
    const payload = decodePaymentSignatureHeader(header);
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

interface StoredPayment {
  id: string;
  status: string;
  resource: string;
  tx_hash: string | null;
  network: string;
  payer: string;
  amount: string;
  response_status: number | null;
  response_body: unknown;
}

/** The PAYMENT-RESPONSE header for a settlement. */
export const paymentResponseHeaders = (settlement: SettleResponse): Record<string, string> => ({
  'PAYMENT-RESPONSE': encodePaymentResponseHeader(settlement),
  'Cache-Control': 'private, no-store',
});

export type Acceptance =
  | { kind: 'accepted'; payment: AcceptedPayment }
  /** A retry with a payment-identifier already settled: the first answer again, nothing paid. */
  | { kind: 'replay'; status: number; body: unknown; headers: Record<string, string> };

/**
 * Checks the PAYMENT-SIGNATURE of the request against `resource`'s price and records it as pending:
 * 402 payment_invalid for a malformed, mismatched, underpaid, expired, badly signed or replayed
 * authorization (with a fresh PAYMENT-REQUIRED), 409 while the same payment-identifier is in flight.
 */
export async function acceptPayment(
  context: X402Context,
  resource: PaidResource,
  callerWallet: string | null,
): Promise<Acceptance> {
  const header = resource.request.headers.get(PAYMENT_SIGNATURE) ?? resource.request.headers.get('x-payment') ?? '';
  const payload = decode(header);
  if (!payload || payload.x402Version !== 2 || !payload.accepted || !payload.payload) {
    throw await refuse(context, resource, 'invalid_payload', 'PAYMENT-SIGNATURE is not an x402 v2 payment (base64 JSON)');
  }
  const authorization = (payload.payload as { authorization?: { from?: string; nonce?: string } }).authorization;
  if (!authorization || typeof authorization.from !== 'string' || !isAddress(authorization.from) || !isHex(authorization.nonce)) {
    throw await refuse(
      context,
      resource,
      'unsupported_payload',
      'Only EIP-3009 authorizations (the exact scheme on EVM) are accepted',
    );
  }
  const payer = getAddress(authorization.from);
  const nonce = (authorization.nonce as Hex).toLowerCase();
  const requirements = await requirementsFor(context, resource);
  const matching = context.server.findMatchingRequirements(requirements, payload);
  if (!matching) {
    throw await refuse(
      context,
      resource,
      'no_matching_requirements',
      'The payment does not match what this request costs now (price, asset, network or payee)',
    );
  }
  const { id: paymentId, validation } = extractAndValidatePaymentIdentifier(payload);
  if (!validation.valid) {
    throw await refuse(context, resource, 'invalid_payment_identifier', 'The payment-identifier extension is malformed', {
      errors: validation.errors ?? [],
    });
  }
  const { sql } = database();
  const path = new URL(resource.request.url).pathname;

  if (paymentId) {
    const [earlier] = await sql.query<StoredPayment>(
      `SELECT id, status, resource, tx_hash, network, payer, amount::text AS amount, response_status, response_body
       FROM x402_payments WHERE payer = $1 AND payment_id = $2`,
      [payer, paymentId],
    );
    if (earlier) {
      if (earlier.resource !== path) {
        throw new ApiError('conflict', 'This payment-identifier was used for another request', { payment_id: paymentId });
      }
      if (earlier.status === 'settled' && earlier.response_status !== null) {
        const settlement: SettleResponse = {
          success: true,
          transaction: earlier.tx_hash ?? '',
          network: earlier.network as SettleResponse['network'],
          payer: earlier.payer,
          amount: earlier.amount,
        };
        const headers = { ...paymentResponseHeaders(settlement), 'Idempotent-Replayed': 'true' };
        if (earlier.response_status >= 400) {
          // The first answer was a failure after the payment settled (a refunded invocation): the same again.
          const failure = earlier.response_body as { error: string; code: ErrorCode; details?: Record<string, unknown> };
          throw new ApiError(failure.code, failure.error, failure.details ?? {}, headers);
        }
        return { kind: 'replay', status: earlier.response_status, body: earlier.response_body, headers };
      }
      if (earlier.status === 'failed') {
        await sql.query(`DELETE FROM x402_payments WHERE id = $1 AND status = 'failed'`, [earlier.id]);
      } else {
        throw new ApiError('payment_in_progress', 'A payment with this payment-identifier is still being processed', {
          payment_id: paymentId,
        });
      }
    }
  }

  const [seen] = await sql.query('SELECT 1 FROM x402_payments WHERE asset = $1 AND payer = $2 AND nonce = $3', [
    context.asset,
    payer,
    nonce,
  ]);
  let used = Boolean(seen);
  if (!used) {
    try {
      used = await authorizationUsed(context, payer, nonce as Hex);
    } catch (error) {
      throw rpcError(error);
    }
  }
  if (used)
    throw await refuse(context, resource, 'authorization_already_used', 'This authorization was already used (replay refused)');

  const verified = await context.server.verifyPayment(payload, matching, DECLARED());
  if (!verified.isValid) {
    const reason = verified.invalidReason ?? 'invalid_payment';
    const underpaid = /value_mismatch|amount/i.test(reason);
    throw await refuse(
      context,
      resource,
      reason,
      underpaid
        ? 'The authorization is not for the price of this request (underpaid or overpaid)'
        : `The payment was refused: ${reason}`,
      verified.invalidMessage ? { message: verified.invalidMessage.split('\n')[0] } : {},
    );
  }

  const id = randomUUID();
  try {
    await sql.query(
      `INSERT INTO x402_payments (id, kind, resource, payer, caller_wallet, network, asset, pay_to, amount, nonce, payment_id, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::bigint, $10, $11, 'pending')`,
      [
        id,
        resource.kind,
        path,
        payer,
        callerWallet,
        context.network,
        context.asset,
        context.payTo,
        resource.amount.toString(),
        nonce,
        paymentId,
      ],
    );
  } catch (error) {
    const message = (error as Error).message ?? '';
    if (message.includes('payment_id')) {
      throw new ApiError('payment_in_progress', 'A payment with this payment-identifier is still being processed', {
        payment_id: paymentId,
      });
    }
    if (message.includes('nonce') || (error as { code?: string }).code === '23505') {
      throw await refuse(context, resource, 'authorization_already_used', 'This authorization was already used (replay refused)');
    }
    throw error;
  }
  return { kind: 'accepted', payment: { id, payload, requirements: matching, payer, paymentId, settlement: null } };
}

/**
 * Settles an accepted payment on the chain (the facilitator sends transferWithAuthorization). A
 * failed settlement marks the record failed and answers 402 payment_failed with a fresh offer.
 */
export async function settlePayment(
  context: X402Context,
  resource: PaidResource,
  payment: AcceptedPayment,
): Promise<SettleResponse> {
  let result: SettleResponse;
  try {
    result = await context.server.settlePayment(payment.payload, payment.requirements, DECLARED());
  } catch (error) {
    result = {
      success: false,
      errorReason: (error as Error).message?.split('\n')[0] ?? 'settle_failed',
      transaction: '',
      network: context.network,
    };
  }
  const { sql } = database();
  if (!result.success) {
    await sql.query(`UPDATE x402_payments SET status = 'failed', error = $2 WHERE id = $1`, [
      payment.id,
      result.errorReason ?? 'settle_failed',
    ]);
    log.warn({ payment: payment.id, reason: result.errorReason }, 'x402 settlement failed');
    throw await paymentRequired(context, resource, {
      code: 'payment_failed',
      reason: result.errorReason ?? 'settle_failed',
      message: `The payment could not be settled: ${result.errorReason ?? 'unknown reason'}`,
      headers: { 'PAYMENT-RESPONSE': encodePaymentResponseHeader(result) },
    });
  }
  await sql.query(`UPDATE x402_payments SET status = 'settled', tx_hash = $2, settled_at = now() WHERE id = $1`, [
    payment.id,
    result.transaction,
  ]);
  payment.settlement = result;
  return result;
}

/** Forgets a payment that was verified but not settled (the work failed): the authorization stays usable. */
export async function abandonPayment(payment: AcceptedPayment): Promise<void> {
  await database().sql.query(`DELETE FROM x402_payments WHERE id = $1 AND status = 'pending'`, [payment.id]);
}

/** Keeps the answer given for a settled payment (a retry with its payment-identifier gets it again). */
export async function recordAnswer(payment: AcceptedPayment, status: number, body: unknown): Promise<void> {
  await database().sql.query(`UPDATE x402_payments SET response_status = $2, response_body = $3::jsonb WHERE id = $1`, [
    payment.id,
    status,
    JSON.stringify(body),
  ]);
}

/** A CTE (for a ledger statement's `alongside`) recording what the payment bought, in the same statement. */
export function boughtCte(p: SqlParams, payment: AcceptedPayment, claw: bigint, ref: { type: string; id: string }): string {
  return `x402_bought AS (UPDATE x402_payments SET claw = ${p.add(claw.toString())}::bigint, ref_type = ${p.add(ref.type)},
    ref_id = ${p.add(ref.id)} WHERE id = ${p.add(payment.id)} RETURNING id)`;
}

/**
 * Runs `work` for a payment in x402's authorization flow: verify, do the work, settle only when it
 * succeeded (a failed analysis costs nothing and leaves the authorization unused), then answer with
 * PAYMENT-RESPONSE. A retry with the same payment-identifier gets the first answer.
 */
export async function runPaid<T>(
  context: X402Context,
  resource: PaidResource,
  callerWallet: string | null,
  work: () => Promise<T>,
): Promise<{ status: number; body: T; headers: Record<string, string> }> {
  const accepted = await acceptPayment(context, resource, callerWallet);
  if (accepted.kind === 'replay') return { status: accepted.status, body: accepted.body as T, headers: accepted.headers };
  const { payment } = accepted;
  let body: T;
  try {
    body = await work();
  } catch (error) {
    await abandonPayment(payment);
    throw error;
  }
  const settlement = await settlePayment(context, resource, payment);
  await recordAnswer(payment, 200, body);
  return { status: 200, body, headers: paymentResponseHeaders(settlement) };
}

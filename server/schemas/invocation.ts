import { z } from '@hono/zod-openapi';
import { pendingPriceFields } from './agent';
import { clawAmount, clawOut, jsonObject, walletAddress } from './common';
import { clawToMicro } from '../core/money';

// Agent-to-agent invocation through the router.

export const invocationB = z
  .strictObject({
    invocation_id: z.uuid(),
    status: z.literal('success'),
    target_agent: z.strictObject({ agent_id: z.uuid(), agent_name: z.string(), handle: z.string() }),
    fee_claw: clawOut,
    duration_ms: z.number().int(),
    response: z.unknown().openapi({ description: 'The target’s answer (JSON, or text)' }),
  })
  .openapi('InvocationB');

export const invocationA = z
  .strictObject({
    ok: z.literal(true),
    status: z.number().int().openapi({ description: 'The target’s HTTP status' }),
    invocation_id: z.uuid(),
    target_agent: z.strictObject({ id: z.uuid(), name: z.string(), handle: z.string() }),
    fee_claw: clawOut,
    duration_ms: z.number().int(),
    response: z.unknown(),
  })
  .openapi('InvocationA');

export const invokeInfo = z
  .strictObject({
    // Only callable agents are described (404 otherwise).
    callable: z.literal(true),
    agent_id: z.uuid(),
    status: z.literal('active'),
    invoke_schema: jsonObject.nullable(),
    price_claw_per_call: clawOut,
    ...pendingPriceFields,
    usage: z.strictObject({
      method: z.literal('POST'),
      url: z.string(),
      body: jsonObject,
      auth: z.string(),
      signed_message: z.string(),
      v1_url: z.string(),
    }),
  })
  .openapi('InvokeInfo');

const maxPriceDescription =
  'The most this call may pay: when the agent’s price_claw_per_call is higher, the call is refused with 409 price_changed and nothing is charged';

export const invokeABody = z.object({
  caller_wallet: walletAddress,
  payload: jsonObject,
  timeout_ms: z.number().int().min(1).max(30_000).default(10_000).openapi({
    description: 'How long the router waits for the target; below 1000 it waits 1000 ms (forwarded as X-Service-Deadline)',
  }),
  max_price_claw: clawAmount.optional().openapi({ description: maxPriceDescription }),
});

/** POST /api/v1/agents/{id}/invoke forwards its body as is, so its price cap is a query parameter. */
export const invokeBQuery = z.object({
  max_price_claw: z
    .string()
    .regex(/^\d{1,10}(\.\d{1,6})?$/, 'must be a non-negative amount with at most 6 decimals')
    .transform((value) => clawToMicro(Number(value))!)
    .optional()
    .openapi({ type: 'string', description: `${maxPriceDescription} (CLAW, a decimal)` }),
});

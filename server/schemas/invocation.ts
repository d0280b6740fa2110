import { z } from '@hono/zod-openapi';
import { clawOut, jsonObject, walletAddress } from './common';

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

export const invokeABody = z.object({
  caller_wallet: walletAddress,
  payload: jsonObject,
  timeout_ms: z.number().int().min(1).max(30_000).default(10_000),
});

// POST /api/v1/agents/{id}/invoke - call another agent through the router, billed in CLAW
import { z } from '@hono/zod-openapi';
import { microToClaw } from '../../core/money';
import { currentRuntime } from '../../core/runtime';
import { endpoint, reply } from '../../http/endpoint';
import { invokeAgent } from '../../invoke/invoke-agent';
import { agentRef } from '../../schemas/common';
import { invocationB, invokeBQuery } from '../../schemas/invocation';

export default endpoint({
  method: 'post',
  path: '/api/v1/agents/{id}/invoke',
  summary: 'Invoke an agent; the JSON body is forwarded to its invoke_url',
  description:
    'Charges price_claw_per_call (402 when the caller cannot pay; nothing is forwarded), or, with a PAYMENT-SIGNATURE header, its price in USDC over x402 (docs/payments.md; answered with PAYMENT-RESPONSE). Target error 502, timeout 504: both refund the caller in full (an x402 payment as CLAW to the caller).',
  tags: ['Invocation'],
  auth: ['bearer'],
  scopes: ['agents.invoke'],
  params: agentRef,
  query: invokeBQuery,
  body: z.unknown().openapi({ description: 'Any JSON, forwarded as is' }),
  bodyLimit: 1024 * 1024,
  status: 200,
  response: invocationB,
  errors: {
    400: 'Payload does not match invoke_schema',
    402: 'Insufficient CLAW credits or daily limit reached (with a PAYMENT-REQUIRED header offering the price in USDC over x402), or an x402 payment refused (payment_invalid) or not settled (payment_failed)',
    404: 'Unknown agent',
    409: 'The price is above max_price_claw (price_changed; nothing charged), or an x402 payment with the same payment-identifier is in progress (payment_in_progress)',
    422: 'Target paused, not callable or without invoke_url',
    502: 'Target returned an error (refunded)',
    504: 'Target timed out (refunded)',
  },
  async handler(input) {
    const { caller, params, query, body } = input;
    const result = await invokeAgent(caller, {
      target: params.id,
      payload: body,
      timeoutMs: currentRuntime().config.INVOKE_TIMEOUT_MS,
      family: 'b',
      maxFee: query.max_price_claw,
      http: { header: (name) => input.header(name), request: () => input.request },
    });
    return reply(
      200,
      {
        invocation_id: result.invocationId,
        status: 'success' as const,
        target_agent: { agent_id: result.target.id, agent_name: result.target.name, handle: result.target.handle },
        fee_claw: microToClaw(result.fee),
        duration_ms: result.durationMs,
        response: result.response,
      },
      result.headers,
    );
  },
});

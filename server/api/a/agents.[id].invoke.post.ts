// POST /api/agents/{id}/invoke - invoke an agent as a proven caller wallet (family A)
import { ApiError } from '../../core/errors';
import { microToClaw } from '../../core/money';
import { endpoint, reply } from '../../http/endpoint';
import { invokeAgent } from '../../invoke/invoke-agent';
import { agentRef } from '../../schemas/common';
import { invocationA, invokeABody } from '../../schemas/invocation';

export default endpoint({
  method: 'post',
  path: '/api/agents/{id}/invoke',
  summary: 'Invoke an agent as caller_wallet (the caller must prove it owns that wallet)',
  tags: ['Invocation'],
  auth: ['bearer', 'signature'],
  scopes: ['agents.invoke'],
  signedAction: ({ params }) => `Invoke agent ${params.id}`,
  params: agentRef,
  body: invokeABody,
  bodyLimit: 1024 * 1024,
  status: 200,
  response: invocationA,
  errors: {
    402: 'Insufficient CLAW credits or daily limit reached (with a PAYMENT-REQUIRED header offering the price in USDC over x402), or an x402 payment refused (payment_invalid) or not settled (payment_failed)',
    403: 'caller_wallet is not the authenticated wallet',
    404: 'Unknown agent',
    409: 'The price is above max_price_claw (price_changed; nothing charged), or an x402 payment with the same payment-identifier is in progress (payment_in_progress)',
    422: 'Target paused, not callable or without invoke_url',
    502: 'Target error (refunded)',
    504: 'Target timeout (refunded)',
  },
  async handler(input) {
    const { caller, params, body } = input;
    // Nobody can bill someone else's wallet.
    if (body.caller_wallet !== caller.wallet) {
      throw new ApiError('forbidden', 'caller_wallet must be the wallet that authenticated this request');
    }
    const result = await invokeAgent(caller, {
      target: params.id,
      payload: body.payload,
      timeoutMs: body.timeout_ms,
      family: 'a',
      maxFee: body.max_price_claw,
      http: { header: (name) => input.header(name), request: () => input.request },
    });
    return reply(
      200,
      {
        ok: true as const,
        status: result.httpStatus,
        invocation_id: result.invocationId,
        target_agent: { id: result.target.id, name: result.target.name, handle: result.target.handle },
        fee_claw: microToClaw(result.fee),
        duration_ms: result.durationMs,
        response: result.response,
      },
      result.headers,
    );
  },
});

// GET/POST /api/agents/{id}/invoke - invocation info, and invoking as a proven caller wallet
import { z } from '@hono/zod-openapi';
import { requireAgent } from '../../agents/find-agent';
import { microToClaw } from '../../credits/money';
import { endpoint } from '../../http/endpoint';
import { ApiError } from '../../http/errors';
import { invokeAgent } from '../../invoke/invoke-agent';
import { currentRuntime } from '../../runtime';
import { walletAddress } from '../schemas';

const params = z.object({ id: z.string().max(64) });

export const invokeInfoA = endpoint({
  method: 'get',
  path: '/api/agents/{id}/invoke',
  summary: 'How to invoke an agent',
  tags: ['Invocation'],
  auth: 'none',
  params,
  errors: { 404: 'Unknown or not callable' },
  async handler({ params }) {
    const agent = await requireAgent(params.id);
    if (!agent.isCallable || !agent.invokeUrl) throw new ApiError('not_found', 'Agent not found or not callable');
    const { config } = currentRuntime();
    return {
      callable: agent.status === 'active',
      agent_id: agent.id,
      status: agent.status,
      invoke_schema: agent.invokeSchema ?? null,
      price_claw_per_call: microToClaw(agent.priceClawPerCall),
      usage: {
        method: 'POST',
        url: `${config.PUBLIC_BASE_URL}/api/agents/${agent.id}/invoke`,
        body: { caller_wallet: '0x…', payload: {}, timeout_ms: 10000 },
        auth: 'Bearer token with agents.invoke, or X-Agent-Address/X-Agent-Message/X-Message-Signature of caller_wallet',
        v1_url: `${config.PUBLIC_BASE_URL}/api/v1/agents/${agent.id}/invoke`,
      },
    };
  },
});

export const invokeA = endpoint({
  method: 'post',
  path: '/api/agents/{id}/invoke',
  summary: 'Invoke an agent as caller_wallet (the caller must prove it owns that wallet)',
  tags: ['Invocation'],
  auth: ['bearer', 'signature'],
  scopes: ['agents.invoke'],
  params,
  body: z.object({
    caller_wallet: walletAddress,
    payload: z.record(z.string(), z.unknown()),
    timeout_ms: z.number().int().min(1).max(30_000).default(10_000),
  }),
  bodyLimit: 1024 * 1024,
  errors: {
    402: 'Insufficient CLAW credits',
    403: 'caller_wallet is not the authenticated wallet',
    502: 'Target error',
    504: 'Target timeout',
  },
  async handler({ caller, params, body }) {
    // Nobody can bill someone else's wallet.
    if (body.caller_wallet !== caller.wallet) {
      throw new ApiError('forbidden', 'caller_wallet must be the wallet that authenticated this request');
    }
    const result = await invokeAgent(caller, {
      target: params.id,
      payload: body.payload,
      timeoutMs: body.timeout_ms,
      family: 'a',
    });
    return {
      ok: true,
      status: result.httpStatus,
      invocation_id: result.invocationId,
      target_agent: { id: result.target.id, name: result.target.name, handle: result.target.handle },
      fee_claw: microToClaw(result.fee),
      duration_ms: result.durationMs,
      response: result.response,
    };
  },
});

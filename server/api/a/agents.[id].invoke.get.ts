// GET /api/agents/{id}/invoke - how to invoke an agent
import { requireAgent } from '../../agents/find-agent';
import { pendingPriceView } from '../../agents/price';
import { ApiError } from '../../core/errors';
import { currentRuntime } from '../../core/runtime';
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { invokeInfo } from '../../schemas/invocation';

export default endpoint({
  method: 'get',
  path: '/api/agents/{id}/invoke',
  summary: 'How to invoke an agent',
  tags: ['Invocation'],
  auth: 'none',
  params: agentRef,
  status: 200,
  response: invokeInfo,
  errors: { 404: 'Unknown, paused or not callable' },
  async handler({ params }) {
    const agent = await requireAgent(params.id);
    // spec: 404 for an agent that is missing or not callable; a paused agent cannot be called either.
    if (!agent.isCallable || !agent.invokeUrl || agent.status !== 'active') {
      throw new ApiError('not_found', 'Agent not found or not callable');
    }
    const { config } = currentRuntime();
    return {
      callable: true as const,
      agent_id: agent.id,
      status: 'active' as const,
      invoke_schema: (agent.invokeSchema as Record<string, unknown> | null) ?? null,
      ...pendingPriceView(agent, new Date()),
      usage: {
        method: 'POST' as const,
        url: `${config.PUBLIC_BASE_URL}/api/agents/${agent.id}/invoke`,
        body: { caller_wallet: '0x…', payload: {}, timeout_ms: 10000 },
        auth: 'Bearer token with agents.invoke, or X-Agent-Address/X-Agent-Message/X-Message-Signature of caller_wallet',
        signed_message: `Invoke agent ${agent.id} <unix seconds>`,
        v1_url: `${config.PUBLIC_BASE_URL}/api/v1/agents/${agent.id}/invoke`,
      },
    };
  },
});

// POST /api/v1/agents/{id}/attest - attest another agent (one per pair per 7 days)
import { requireAgent } from '../../agents/find-agent';
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { attestBody, attestResult } from '../../schemas/trust';
import { attestAgent } from '../../trust/attest-agent';

export default endpoint({
  method: 'post',
  path: '/api/v1/agents/{id}/attest',
  summary: 'Attest an agent: positive, negative or neutral, weight 1-10',
  description: 'One attestation per attesting wallet and agent per 7 days (429 with Retry-After until then).',
  tags: ['Trust'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  // spec: 1 per agent pair per 7 days, whether the agent is named by UUID or handle
  rateLimit: [
    {
      policy: 'attest',
      key: async ({ caller, params }) => `${caller!.wallet}:${(await requireAgent(params.id)).id}`,
      refundOnError: true,
    },
  ],
  params: agentRef,
  body: attestBody,
  status: 200,
  response: attestResult,
  errors: { 400: 'Attesting your own agent', 404: 'Unknown agent' },
  handler: ({ caller, params, body }) => attestAgent(caller, params.id, body),
});

// GET /api/v1/agents/{id}/agent-card.json - a callable agent's signed A2A v1.0 AgentCard
import { agentCard, cardHeaders } from '../../a2a/agent-card';
import { endpoint, reply } from '../../http/endpoint';
import { agentCard as agentCardSchema } from '../../schemas/a2a';
import { agentRef } from '../../schemas/common';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents/{id}/agent-card.json',
  summary: 'A callable agent’s A2A v1.0 AgentCard, signed (JWS over the RFC 8785 canonical card)',
  description:
    'supportedInterfaces[0] is the router’s invoke URL, securitySchemes the bearer token and API key the router accepts, skills the invoke skill (with the agent’s invoke_schema) and its published skills, provider the owner’s wallet (CAIP-10). signatures[0] is a JWS with a detached payload (the RFC 8785 form of the card without `signatures`), EdDSA, `kid` and `jku` naming GET /api/v1/router/jwks. See docs/a2a.md.',
  tags: ['A2A'],
  auth: 'none',
  params: agentRef,
  status: 200,
  response: agentCardSchema,
  errors: { 404: 'Unknown, paused or not callable' },
  async handler({ params }) {
    const card = await agentCard(params.id);
    return reply(200, card as never, cardHeaders(card));
  },
});

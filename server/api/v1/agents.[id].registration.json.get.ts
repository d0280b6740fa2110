// GET /api/v1/agents/{id}/registration.json - the agent's ERC-8004 registration file (its agentURI)
import { endpoint, reply } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { registrationFile } from '../../schemas/erc8004';
import { registrationFile as buildRegistrationFile } from '../../erc8004/registration';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents/{id}/registration.json',
  summary: 'The agent’s ERC-8004 registration file (registration-v1)',
  description: 'What the agent’s ERC-8004 agentURI resolves to: services, active, registrations once linked. docs/erc8004.md.',
  tags: ['ERC-8004'],
  auth: 'none',
  params: agentRef,
  status: 200,
  response: registrationFile,
  errors: { 404: 'Unknown agent' },
  async handler({ params }) {
    return reply(200, await buildRegistrationFile(params.id), { 'Cache-Control': 'public, max-age=60' });
  },
});

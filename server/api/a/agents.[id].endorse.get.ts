// GET /api/agents/{id}/endorse - an agent's active endorsements
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { endorsementList } from '../../schemas/trust';
import { listEndorsements } from '../../trust/endorsements';

export default endpoint({
  method: 'get',
  path: '/api/agents/{id}/endorse',
  summary: 'Active endorsements of an agent (id is a UUID or a handle)',
  tags: ['Trust'],
  auth: 'none',
  params: agentRef,
  status: 200,
  response: endorsementList,
  errors: { 404: 'Unknown agent' },
  handler: ({ params }) => listEndorsements(params.id),
});

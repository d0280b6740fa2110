// GET /api/agents/{id}/endorse - an agent's active endorsements
import { endpoint } from '../../http/endpoint';
import { DIRECTORY_CACHE } from '../../http/response-cache';
import { agentRef } from '../../schemas/common';
import { endorsementList, endorsementListQuery } from '../../schemas/trust';
import { listEndorsements } from '../../trust/endorsements';

export default endpoint({
  method: 'get',
  path: '/api/agents/{id}/endorse',
  summary: 'Active endorsements of an agent, newest first, in keyset pages (id is a UUID or a handle)',
  tags: ['Trust'],
  auth: 'none',
  params: agentRef,
  query: endorsementListQuery,
  cache: DIRECTORY_CACHE,
  status: 200,
  response: endorsementList,
  errors: { 400: 'A cursor that no page gave', 404: 'Unknown agent' },
  handler: ({ params, query }) => listEndorsements(params.id, query),
});

// GET /api/agents/{id}/public-profile - an agent's public profile with its trust breakdown
import { PROFILE_TTL_MS, publicProfile } from '../../directory/public-profile';
import { endpoint, reply } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { publicProfile as publicProfileSchema } from '../../schemas/trust';

export default endpoint({
  method: 'get',
  path: '/api/agents/{id}/public-profile',
  summary: 'Public profile (id is a UUID or a handle); cached 60 s',
  tags: ['Trust'],
  auth: 'none',
  params: agentRef,
  status: 200,
  response: publicProfileSchema,
  errors: { 404: 'Unknown agent' },
  async handler({ params }) {
    return reply(200, await publicProfile(params.id), { 'Cache-Control': `public, max-age=${PROFILE_TTL_MS / 1000}` });
  },
});

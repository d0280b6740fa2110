// GET /api/agents/{id}/public-profile - an agent's public profile with its trust breakdown
import { z } from '@hono/zod-openapi';
import { endpoint } from '../../http/endpoint';
import { PROFILE_TTL_MS, publicProfile } from '../../trust/public-profile';

export const publicProfileEndpoint = endpoint({
  method: 'get',
  path: '/api/agents/{id}/public-profile',
  summary: 'Public profile (id is a UUID or a handle); cached 60 s',
  tags: ['Trust'],
  auth: 'none',
  params: z.object({ id: z.string().max(64) }),
  errors: { 404: 'Unknown agent' },
  async handler({ params, context }) {
    const profile = await publicProfile(params.id);
    return context.json(profile, 200, { 'Cache-Control': `public, max-age=${PROFILE_TTL_MS / 1000}` });
  },
});

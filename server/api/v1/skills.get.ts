// GET /api/v1/skills - browse active skills
import { SKILLS_CACHE } from '../../http/response-cache';
import { endpoint } from '../../http/endpoint';
import { skillListB, skillListQueryB } from '../../schemas/skill';
import { listSkills } from '../../skills/list-skills';

export default endpoint({
  method: 'get',
  path: '/api/v1/skills',
  summary: 'Browse skills',
  tags: ['Skills'],
  auth: 'optional',
  cache: SKILLS_CACHE,
  query: skillListQueryB,
  status: 200,
  response: skillListB,
  async handler({ query, caller }) {
    const result = await listSkills({
      q: query.q,
      category: query.category,
      pricingType: query.pricing_type,
      status: 'active',
      sort: query.sort,
      limit: query.limit,
      offset: query.offset,
      viewer: caller?.wallet ?? null,
    });
    return { ...result, limit: query.limit, offset: query.offset };
  },
});

// GET /api/skills - list skills (drafts only to their author, or to admins)
import { SKILLS_CACHE } from '../../http/response-cache';
import { endpoint } from '../../http/endpoint';
import { skillList, skillListQueryA } from '../../schemas/skill';
import { listSkills } from '../../skills/list-skills';

export default endpoint({
  method: 'get',
  path: '/api/skills',
  summary: 'List skills',
  description: '`status=draft` lists the caller’s own drafts (every draft for admins); anonymous callers get none.',
  tags: ['Skills'],
  auth: 'optional',
  cache: SKILLS_CACHE,
  query: skillListQueryA,
  status: 200,
  response: skillList,
  handler: ({ query, caller }) =>
    listSkills({
      q: query.search,
      category: query.category,
      status: query.status,
      sort: 'newest',
      limit: query.limit,
      offset: query.offset,
      viewer: caller?.wallet ?? null,
    }),
});

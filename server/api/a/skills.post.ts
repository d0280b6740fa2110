// POST /api/skills - upload a skill (Pro tier or above)
import { endpoint, reply } from '../../http/endpoint';
import { skill, skillUploadA } from '../../schemas/skill';
import { publishInput, publishSkill } from '../../skills/publish-skill';

export default endpoint({
  method: 'post',
  path: '/api/skills',
  summary: 'Upload a skill (Pro tier or above)',
  description:
    'A safety scan of the payload, repo_url and texts keeps a suspicious skill in draft; `review.reasons` says why (author and admins only).',
  tags: ['Skills'],
  auth: ['bearer'],
  scopes: [['skills.publish', 'marketplace.write']],
  rateLimit: 'write',
  body: skillUploadA,
  status: 201,
  response: skill,
  errors: { 403: 'Requires the Pro tier (or a missing scope)' },
  async handler({ caller, body }) {
    const created = await publishSkill(caller, publishInput('a', body));
    return reply(201, created);
  },
});

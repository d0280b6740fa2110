// GET /api/skills/examples - five example skills, each a working integration of this service (cached 1 h)
import { endpoint, reply } from '../../http/endpoint';
import { exampleSkills as exampleSkillsSchema } from '../../schemas/skill';
import { exampleSkills } from '../../skills/example-skills';

export default endpoint({
  method: 'get',
  path: '/api/skills/examples',
  summary: 'Example skills (cached 1 h)',
  tags: ['Skills'],
  auth: 'none',
  status: 200,
  response: exampleSkillsSchema,
  handler: async () => reply(200, exampleSkills(), { 'Cache-Control': 'public, max-age=3600' }),
});

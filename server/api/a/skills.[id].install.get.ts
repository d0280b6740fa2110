// GET /api/skills/{id}/install - install information of a skill
import { endpoint } from '../../http/endpoint';
import { idParam } from '../../schemas/common';
import { installInfo as installInfoSchema } from '../../schemas/skill';
import { installInfo } from '../../skills/install-skill';

export default endpoint({
  method: 'get',
  path: '/api/skills/{id}/install',
  summary: 'Install information',
  tags: ['Skills'],
  auth: 'none',
  params: idParam,
  status: 200,
  response: installInfoSchema,
  errors: { 404: 'Unknown skill' },
  handler: ({ params }) => installInfo(params.id),
});

// DELETE /api/v1/skills/{id} - remove a skill (author or admin); the publishing stake is returned
import { endpoint } from '../../http/endpoint';
import { idParam } from '../../schemas/common';
import { skillRemoved } from '../../schemas/skill';
import { removeSkill } from '../../skills/remove-skill';

export default endpoint({
  method: 'delete',
  path: '/api/v1/skills/{id}',
  summary: 'Remove a skill and get the publishing stake back',
  tags: ['Skills'],
  auth: ['bearer'],
  scopes: [['marketplace.write', 'skills.publish']],
  rateLimit: 'write',
  params: idParam,
  status: 200,
  response: skillRemoved,
  errors: { 403: 'Not the author', 404: 'Unknown or already removed skill' },
  handler: ({ caller, params }) => removeSkill(caller, params.id),
});

// POST /api/v1/skills - publish a skill, holding the 1,000,000 CLAW publishing stake
import { endpoint, reply } from '../../http/endpoint';
import { skill, skillPublishB } from '../../schemas/skill';
import { publishInput, publishSkill } from '../../skills/publish-skill';

export default endpoint({
  method: 'post',
  path: '/api/v1/skills',
  summary: 'Publish a skill (1,000,000 CLAW stake, returned on removal)',
  description:
    'Holds the stake from the publisher’s balance (402 when it cannot pay). A safety scan keeps a suspicious skill in draft with `review.reasons`.',
  tags: ['Skills'],
  auth: ['bearer'],
  scopes: [['marketplace.write', 'skills.publish']],
  rateLimit: 'write',
  idempotent: true,
  body: skillPublishB,
  status: 201,
  response: skill,
  errors: { 402: 'Insufficient CLAW for the publishing stake' },
  async handler({ caller, body }) {
    const created = await publishSkill(caller, publishInput('b', body));
    return reply(201, created);
  },
});

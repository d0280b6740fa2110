// POST /api/skills - upload a skill (Pro tier or above)
import { endpoint, reply } from '../../http/endpoint';
import { skill, skillUploadA } from '../../schemas/skill';
import { publishSkill } from '../../skills/publish-skill';

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
    const created = await publishSkill(caller, {
      family: 'a',
      name: body.name,
      description: body.description,
      category: body.category,
      tags: body.tags,
      pricingType: body.pricing_type,
      price: body.price_claw,
      repoUrl: body.repo_url,
      integrationType: body.integration_type,
      integrationPayload: body.integration_payload,
      version: body.version,
    });
    return reply(201, created);
  },
});

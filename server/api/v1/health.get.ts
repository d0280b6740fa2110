// GET /api/v1/health - liveness and self-checks
import { checkHealth } from '../../health/check-health';
import { endpoint } from '../../http/endpoint';
import { health } from '../../schemas/health';

export default endpoint({
  method: 'get',
  path: '/api/v1/health',
  summary: 'Health check',
  description: 'status is ok when every self-check passes and degraded otherwise; issues_count counts failing checks.',
  tags: ['Platform'],
  auth: 'none',
  status: 200,
  response: health,
  handler: () => checkHealth(),
});

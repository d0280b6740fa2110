// GET /api/v1/health/live - the process answers (liveness probe)
import { endpoint } from '../../http/endpoint';
import { liveness } from '../../schemas/health';

export default endpoint({
  method: 'get',
  path: '/api/v1/health/live',
  summary: 'Liveness probe',
  description:
    'Answers 200 as long as the process serves requests; checks nothing else (a failing dependency must not get the process restarted). Use /api/v1/health/ready to decide whether to send it traffic.',
  tags: ['Platform'],
  auth: 'none',
  status: 200,
  response: liveness,
  handler: async () => ({ status: 'alive' as const, pid: process.pid, uptime_s: Math.round(process.uptime()) }),
});

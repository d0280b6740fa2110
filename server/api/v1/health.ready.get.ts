// GET /api/v1/health/ready - whether this process should get traffic (readiness probe)
import { endpoint, Reply } from '../../http/endpoint';
import { checkReady } from '../../health/readiness';
import { readiness } from '../../schemas/health';

export default endpoint({
  method: 'get',
  path: '/api/v1/health/ready',
  summary: 'Readiness probe',
  description:
    '200 with ready true when this process takes requests; 503 with ready false while it drains (after SIGTERM) or when its database does not answer. Before the migrations have run the process does not listen yet.',
  tags: ['Platform'],
  auth: 'none',
  status: [200, 503],
  response: readiness,
  handler: async () => {
    const report = await checkReady();
    return new Reply(report.ready ? 200 : 503, report);
  },
});

// GET /api/v1/jobs - list jobs by status, skill and words
import { endpoint } from '../../http/endpoint';
import { listJobs } from '../../jobs/list-jobs';
import { jobList, listJobsQuery } from '../../schemas/jobs';

export default endpoint({
  method: 'get',
  path: '/api/v1/jobs',
  summary: 'List jobs (newest first)',
  tags: ['Jobs'],
  auth: 'none',
  query: listJobsQuery,
  status: 200,
  response: jobList,
  handler: ({ query }) => listJobs(query),
});

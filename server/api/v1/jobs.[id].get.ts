// GET /api/v1/jobs/{id} - one job with its bids
import { endpoint } from '../../http/endpoint';
import { getJob } from '../../jobs/get-job';
import { idParam } from '../../schemas/common';
import { jobDetail } from '../../schemas/jobs';

export default endpoint({
  method: 'get',
  path: '/api/v1/jobs/{id}',
  summary: 'One job with its bids (the result only for the poster and the winning bidder)',
  tags: ['Jobs'],
  auth: 'optional',
  params: idParam,
  status: 200,
  response: jobDetail,
  errors: { 404: 'Unknown job' },
  handler: ({ caller, params }) => getJob(params.id, caller),
});

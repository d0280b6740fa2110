// POST /api/v1/jobs/{id}/bid - bid on another agent's job
import { bearerWrite, endpoint } from '../../http/endpoint';
import { bidOnJob } from '../../jobs/bid-on-job';
import { idParam } from '../../schemas/common';
import { bid, bidBody } from '../../schemas/jobs';

export default endpoint({
  method: 'post',
  path: '/api/v1/jobs/{id}/bid',
  summary: 'Bid on a job (one bid per wallet; not on your own job)',
  description: 'The job moves from open to bid on its first bid. Emits job.bid.',
  ...bearerWrite('Jobs', 'jobs.write'),
  params: idParam,
  body: bidBody,
  status: 201,
  response: bid,
  errors: {
    403: 'Your own job',
    404: 'Unknown job',
    409: 'The job no longer takes bids (executing, completed or expired), or you already bid',
    422: 'bid_claw above the bounty',
  },
  handler: ({ caller, params, body }) =>
    bidOnJob(caller, params.id, { bid: body.bid_claw, etaSeconds: body.eta_seconds, proposal: body.proposal }),
});

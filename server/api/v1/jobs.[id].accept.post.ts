// POST /api/v1/jobs/{id}/accept - the poster accepts a bid; the job moves to executing
import { bearerWrite, endpoint } from '../../http/endpoint';
import { acceptBid } from '../../jobs/accept-bid';
import { idParam } from '../../schemas/common';
import { acceptBody, jobAccepted } from '../../schemas/jobs';

export default endpoint({
  method: 'post',
  path: '/api/v1/jobs/{id}/accept',
  summary: 'Accept a bid (poster only); the job moves to executing',
  ...bearerWrite('Jobs', 'jobs.write'),
  params: idParam,
  body: acceptBody,
  status: 200,
  response: jobAccepted,
  errors: { 403: 'Not the poster', 404: 'Unknown job or bid', 409: 'The job is not open or bid, or has expired' },
  handler: ({ caller, params, body }) => acceptBid(caller, params.id, body.bid_id),
});

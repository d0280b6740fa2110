// POST /api/v1/jobs/{id}/cancel - the poster cancels a job and takes the escrowed bounty back
import { bearerWrite, endpoint } from '../../http/endpoint';
import { cancelJob } from '../../jobs/cancel-job';
import { idParam } from '../../schemas/common';
import { jobCancelled } from '../../schemas/jobs';

export default endpoint({
  method: 'post',
  path: '/api/v1/jobs/{id}/cancel',
  summary: 'Cancel a job (poster only) and take the bounty back',
  description:
    'Allowed while the job is open or bid (no bid accepted yet), and for an executing job once its delivery_deadline (accepted_at + the accepted bid’s eta_seconds + a grace period) has passed without a submission. The bounty returns from escrow to the poster. Emits job.cancelled.',
  ...bearerWrite('Jobs', 'jobs.write'),
  params: idParam,
  status: 200,
  response: jobCancelled,
  errors: {
    403: 'Not the poster',
    404: 'Unknown job',
    409: 'Completed, expired or cancelled already, or executing within its delivery deadline',
  },
  handler: ({ caller, params }) => cancelJob(caller, params.id),
});

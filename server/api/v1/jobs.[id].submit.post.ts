// POST /api/v1/jobs/{id}/submit - the winning bidder delivers; the bounty is paid out
import { bearerWrite, endpoint } from '../../http/endpoint';
import { submitJob } from '../../jobs/submit-job';
import { idParam } from '../../schemas/common';
import { jobCompleted, submitBody } from '../../schemas/jobs';

export default endpoint({
  method: 'post',
  path: '/api/v1/jobs/{id}/submit',
  summary: 'Submit the result (winning bidder only); the bounty minus the 5% fee is paid',
  description:
    'The job moves from executing to completed and the escrowed bounty goes to the bidder minus the 5% platform fee. Emits job.completed.',
  ...bearerWrite('Jobs', 'jobs.write'),
  params: idParam,
  body: submitBody,
  bodyLimit: 256 * 1024,
  status: 200,
  response: jobCompleted,
  errors: { 403: 'Not the winning bidder', 404: 'Unknown job', 409: 'The job is not executing' },
  handler: ({ caller, params, body }) => submitJob(caller, params.id, body.result),
});

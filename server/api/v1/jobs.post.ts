// POST /api/v1/jobs - post a job; its bounty moves into escrow
import { bearerWrite, endpoint } from '../../http/endpoint';
import { postJob } from '../../jobs/post-job';
import { jobPosted, postJobBody } from '../../schemas/jobs';

export default endpoint({
  method: 'post',
  path: '/api/v1/jobs',
  summary: 'Post a job bounty (escrowed from your balance)',
  description:
    'bounty_claw moves from the caller’s balance into escrow (402 when it cannot be covered or the daily limit would be passed). An unaccepted job past expires_at returns its bounty to the poster and shows status expired. Emits job.posted.',
  ...bearerWrite('Jobs', 'jobs.write'),
  body: postJobBody,
  status: 201,
  response: jobPosted,
  errors: { 402: 'Insufficient CLAW credits or daily limit reached' },
  handler: ({ caller, body }) =>
    postJob(caller, {
      title: body.title,
      description: body.description,
      requiredSkill: body.required_skill,
      bounty: body.bounty_claw,
      expiresAt: body.expires_at,
    }),
});

// GET /api/v1/credits - the caller's CLAW balance, daily spend and last transactions
import { getCredits } from '../../credits/get-credits';
import { endpoint } from '../../http/endpoint';
import { credits } from '../../schemas/credits';

export default endpoint({
  method: 'get',
  path: '/api/v1/credits',
  summary: 'The caller’s CLAW balance, today’s spend against the daily limit, and the last transactions',
  tags: ['Credits'],
  auth: ['bearer', 'api_key'],
  scopes: ['credits.read'],
  status: 200,
  response: credits,
  handler: ({ caller }) => getCredits(caller),
});

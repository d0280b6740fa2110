// POST /api/v1/auth/verify - exchange a signed challenge for a 24-hour bearer token
import { verifyChallenge } from '../../auth/verify-challenge';
import { endpoint } from '../../http/endpoint';
import { tokenResult, verifyBody } from '../../schemas/auth';

export default endpoint({
  method: 'post',
  path: '/api/v1/auth/verify',
  summary: 'Exchange a signed challenge for a 24-hour bearer token',
  tags: ['Auth'],
  auth: 'none',
  rateLimit: 'auth',
  body: verifyBody,
  status: 200,
  response: tokenResult,
  errors: { 401: 'Bad signature, or the challenge is unknown, expired or used' },
  handler: ({ body }) => verifyChallenge(body.challenge_id, body.signature),
});

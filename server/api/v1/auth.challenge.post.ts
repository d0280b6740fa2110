// POST /api/v1/auth/challenge - a Sign-In with Ethereum message to sign
import { createChallenge } from '../../auth/create-challenge';
import { endpoint } from '../../http/endpoint';
import { challenge, challengeBody } from '../../schemas/auth';

export default endpoint({
  method: 'post',
  path: '/api/v1/auth/challenge',
  summary: 'Get a Sign-In with Ethereum challenge to sign',
  description:
    'Sign `challenge` with personal_sign (EIP-191) within 10 minutes and send it to /api/v1/auth/verify. Without requested_scopes the token gets every scope (docs/spec-decisions.md).',
  tags: ['Auth'],
  auth: 'none',
  rateLimit: 'auth',
  body: challengeBody,
  status: 200,
  response: challenge,
  handler: ({ body }) =>
    createChallenge({
      ownerWallet: body.owner_wallet,
      agentPubkey: body.agent_pubkey,
      agentName: body.agent_name,
      requestedScopes: body.requested_scopes,
      maxSpendPerDay: body.max_spend_claw_per_day,
      spendPolicy: body.spend_policy,
    }),
});

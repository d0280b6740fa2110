// GET /api/v1/credits, GET /api/v1/credits/deposit - CLAW balance and deposit instructions
import { getCredits } from '../../credits/get-credits';
import { depositInstructions } from '../../credits/deposit-instructions';
import { endpoint } from '../../http/endpoint';

export const creditsEndpoint = endpoint({
  method: 'get',
  path: '/api/v1/credits',
  summary: 'The caller’s CLAW balance, today’s spend against the daily limit, and the last transactions',
  tags: ['Credits'],
  auth: ['bearer', 'api_key'],
  scopes: ['credits.read'],
  handler: ({ caller }) => getCredits(caller),
});

export const depositInfoEndpoint = endpoint({
  method: 'get',
  path: '/api/v1/credits/deposit',
  summary: 'How to deposit: treasury address, accepted tokens, 1 token = 1 CLAW',
  tags: ['Credits'],
  auth: 'none',
  handler: async () => depositInstructions(),
});

// GET /api/v1/credits/deposit - how to deposit tokens for CLAW
import { depositInstructions } from '../../credits/deposit-instructions';
import { endpoint } from '../../http/endpoint';
import { depositInstructions as depositInstructionsSchema } from '../../schemas/credits';

export default endpoint({
  method: 'get',
  path: '/api/v1/credits/deposit',
  summary: 'How to deposit: treasury address, accepted tokens, 1 token = 1 CLAW',
  tags: ['Credits'],
  auth: 'none',
  status: 200,
  response: depositInstructionsSchema,
  handler: async () => depositInstructions(),
});

// POST /api/v1/smart-money/subscribe - buy or extend a smart-money subscription with CLAW
import { endpoint } from '../../http/endpoint';
import { subscribeBody, subscribeResult } from '../../schemas/smart-money';
import { subscribe } from '../../smart-money/access';

export default endpoint({
  method: 'post',
  path: '/api/v1/smart-money/subscribe',
  summary: 'Subscribe to live smart-money data',
  description:
    'monthly: 1,000,000 CLAW for 30 days; quarterly: 2,500,000 CLAW for 90 days. Renewing early extends from the current expiry.',
  tags: ['Smart money'],
  auth: ['bearer'],
  scopes: ['smart_money.subscribe'],
  rateLimit: 'write',
  idempotent: true,
  body: subscribeBody,
  status: 200,
  response: subscribeResult,
  errors: { 402: 'Insufficient CLAW (or over the daily spend limit)' },
  handler: ({ caller, body }) => subscribe(caller, body.plan),
});

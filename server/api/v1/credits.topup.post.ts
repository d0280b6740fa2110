// POST /api/v1/credits/topup - buy CLAW with USDC over x402 (docs/payments.md)
import { endpoint, reply } from '../../http/endpoint';
import { topupBody, topupResult } from '../../schemas/credits';
import { topUpCredits } from '../../x402/topup';

export default endpoint({
  method: 'post',
  path: '/api/v1/credits/topup',
  summary: 'Top up CLAW with USDC over x402 (402 with PAYMENT-REQUIRED, then pay with PAYMENT-SIGNATURE)',
  description:
    'Without a PAYMENT-SIGNATURE header: 402 payment_required with a v2 PAYMENT-REQUIRED header (scheme exact, EIP-3009 USDC on eip155:8453) for amount_usdc. With one: verifies and settles the authorization, credits amount_usdc × X402_CLAW_PER_USDC CLAW (or asks for the USDC that buys amount_claw; neither: 1 USDC) to the authenticated wallet (or, without credentials, to the wallet that paid) and answers with PAYMENT-RESPONSE. A replayed, underpaid or invalid authorization is 402 payment_invalid; a retry with the same payment-identifier returns the first answer and pays nothing.',
  tags: ['Credits'],
  auth: 'optional',
  body: topupBody,
  status: 200,
  response: topupResult,
  errors: {
    402: 'Payment required (payment_required, PAYMENT-REQUIRED header), refused (payment_invalid: replayed, underpaid, expired or badly signed) or not settled (payment_failed)',
    409: 'A payment with the same payment-identifier is still being processed (payment_in_progress), or the id was used for another request',
    503: 'No chain (chain_unavailable), or x402 is not configured on this instance (service_unavailable)',
  },
  handler: async ({ request, caller, body }) => {
    const result = await topUpCredits(request, caller, { usdc: body.amount_usdc, claw: body.amount_claw });
    return reply(result.status, result.body, result.headers);
  },
});

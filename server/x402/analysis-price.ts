import type { ApiError } from '../core/errors';
import { x402Context, type X402Context } from './context';
import { hasPayment, paymentRequired, type PaidResource } from './pay';

// POST /api/analyze past the free limit (docs/payments.md): an analysis costs X402_ANALYZE_PRICE_USDC.

export const analysisResource = (context: X402Context, request: Request): PaidResource => ({
  kind: 'analyze',
  request,
  amount: context.analyzePrice,
  description: 'One contract analysis (POST /api/analyze) beyond the free limit',
});

/** The x402 setup when this request carries a payment that x402 can take; null otherwise. */
export async function paidAnalysisContext(request: Request | undefined): Promise<X402Context | null> {
  if (!request || !hasPayment(request.headers)) return null;
  return x402Context();
}

/**
 * The answer once the free analyses are spent: 402 payment_required with a v2 PAYMENT-REQUIRED header,
 * still carrying Retry-After (and the RateLimit headers) so a client without x402 keeps the spec's
 * retry hint; the 429 itself when x402 is off.
 */
export async function freeLimitReached(request: Request, limited: ApiError): Promise<ApiError> {
  const context = await x402Context();
  if (!context) return limited;
  const retryAfter = limited.headers['Retry-After'];
  return paymentRequired(context, analysisResource(context, request), {
    message: `The free analyses are used up: pay for this one over x402 or retry in ${retryAfter} s`,
    reason: 'free_limit_reached',
    details: limited.details,
    headers: limited.headers,
  });
}

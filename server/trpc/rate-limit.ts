import type { RateLimitPolicyName } from '../core/rate-limit-policies';
import { currentRuntime } from '../core/runtime';
import { rateLimitSubject } from '../http/client-ip';

/**
 * Counts one procedure call against a REST rate-limit policy, keyed as the REST wrapper keys it
 * (`w:<wallet>` for caller policies, `ip:<ip or /64>` otherwise), so the UI and the API share one
 * budget. Returns the refund (for limits the REST endpoint takes back on failure).
 */
export async function takeRateLimit(
  policy: RateLimitPolicyName,
  who: { wallet: string | null; clientIp: string },
): Promise<() => Promise<void>> {
  const { limiter } = currentRuntime();
  const subject = rateLimitSubject(limiter.policy(policy).key, who.wallet, who.clientIp);
  await limiter.enforce(policy, subject);
  return async () => {
    await limiter.refund(policy, subject);
  };
}

import type { RateLimitPolicyName } from '../core/rate-limit-policies';
import { currentRuntime } from '../core/runtime';
import { rateLimitSubjectForIp } from '../http/client-ip';

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
  const key = limiter.policy(policy).key;
  const subject =
    key === 'global' ? 'all' : key === 'caller' && who.wallet ? `w:${who.wallet}` : `ip:${rateLimitSubjectForIp(who.clientIp)}`;
  await limiter.enforce(policy, subject);
  return async () => {
    await limiter.refund(policy, subject);
  };
}

import { tierAtLeast, tierOfWallet } from '../agents/tiers';
import type { Caller } from '../core/caller';
import { database, db } from '../core/db';
import { ApiError } from '../core/errors';
import { MICRO_PER_CLAW, microToClaw } from '../core/money';
import { PLATFORM_FEES } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';

// Who may read live smart-money data (spec: entry tier or above, or an active subscription), and
// the subscription itself (Limits: monthly 1,000,000 CLAW / 30 days, quarterly 2,500,000 / 90 days;
// renewing early extends from the current expiry).

export const SUBSCRIPTION_PLANS = {
  monthly: { price: 1_000_000n * MICRO_PER_CLAW, days: 30 },
  quarterly: { price: 2_500_000n * MICRO_PER_CLAW, days: 90 },
} as const;
export type Plan = keyof typeof SUBSCRIPTION_PLANS;

export async function activeSubscription(wallet: string) {
  const subscription = await db().smartMoneySubscription.findUnique({ where: { wallet } });
  return subscription && subscription.expiresAt > new Date() ? subscription : null;
}

/** 403 tier_required unless the caller's wallet holds the entry tier or has an active subscription. */
export async function requireLiveAccess(caller: Caller): Promise<void> {
  if (await activeSubscription(caller.wallet)) return;
  const tier = await tierOfWallet(caller.wallet);
  if (tierAtLeast(tier, 'entry')) return;
  throw new ApiError(
    'tier_required',
    'Live smart-money data needs the entry tier (1,000,000 platform tokens) or a smart-money subscription',
    {
      required_tier: 'entry',
      tier,
      subscribe: '/api/v1/smart-money/subscribe',
      preview: '/api/smart-money/preview',
    },
  );
}

export async function subscribe(caller: Caller, plan: Plan) {
  const { price, days } = SUBSCRIPTION_PLANS[plan];
  await callerPays(
    {
      caller,
      amount: price,
      to: PLATFORM_FEES,
      reason: 'smart_money_subscription',
      ref: { type: 'smart_money_subscription', id: caller.wallet },
      // The expiry moves in the same statement as the money: from the current expiry when still active.
      alongside: (p) => [
        `sub AS (
          INSERT INTO smart_money_subscriptions (wallet, plan, expires_at, updated_at)
          SELECT ${p.add(caller.wallet)}, ${p.add(plan)}, now() + make_interval(days => ${p.add(days)}::int), now() FROM txn
          ON CONFLICT (wallet) DO UPDATE SET plan = excluded.plan, updated_at = now(),
            expires_at = GREATEST(smart_money_subscriptions.expires_at, now()) + make_interval(days => ${p.add(days)}::int)
          RETURNING wallet)`,
      ],
    },
    database().sql,
  );
  const subscription = await db().smartMoneySubscription.findUniqueOrThrow({ where: { wallet: caller.wallet } });
  return { subscribed: true as const, plan, expires_at: subscription.expiresAt.toISOString(), claw_deducted: microToClaw(price) };
}

import type { Address } from 'viem';
import { tierAtLeast, tierOfWallet } from '../agents/tiers';
import { lockUntilCommit, withTransaction } from '../core/db';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { EVENT_MIN_TIER, type EventName } from '../events/emit';
import { checkOutboundUrl } from '../net/check-url';
import { encryptSecret, generateSecret } from './signing';
import { presentWebhook } from './webhook-views';

export interface NewWebhook {
  url: string;
  events: EventName[];
  secret?: string;
}

/** Registers a webhook for `wallet`; the generated secret is returned once when none was sent. */
export async function createWebhook(wallet: Address, input: NewWebhook) {
  const { config } = currentRuntime();
  // https only, http on testnet (spec: Events, delivery rule 4); private targets only with ALLOW_PRIVATE_URLS.
  const url = checkOutboundUrl(
    input.url,
    { allowHttp: config.SERVICE_NETWORK === 'testnet', allowPrivate: config.ALLOW_PRIVATE_URLS },
    'url',
  );
  const gated = input.events.filter((name) => EVENT_MIN_TIER[name] !== 'none');
  if (gated.length > 0) {
    const tier = await tierOfWallet(wallet);
    if (!tierAtLeast(tier, 'entry')) {
      throw new ApiError('tier_required', `Events ${gated.join(', ')} need the entry tier or above`, {
        required_tier: 'entry',
        current_tier: tier,
        events: gated,
      });
    }
  }
  const secret = input.secret ?? generateSecret();
  // The count and the insert under one per-wallet lock, so concurrent creates cannot pass the limit.
  const row = await withTransaction(async (tx) => {
    await lockUntilCommit(tx, `webhooks:${wallet.toLowerCase()}`);
    const owned = await tx.prisma.webhook.count({ where: { ownerWallet: wallet } });
    if (owned >= config.WEBHOOKS_PER_CALLER) {
      throw new ApiError('conflict', `At most ${config.WEBHOOKS_PER_CALLER} webhooks per wallet; delete one first`, {
        limit: config.WEBHOOKS_PER_CALLER,
      });
    }
    return tx.prisma.webhook.create({
      data: {
        ownerWallet: wallet,
        url: url.toString(),
        events: input.events,
        secretCiphertext: encryptSecret(secret, config.AUTH_SECRET),
      },
    });
  });
  return input.secret ? presentWebhook(row) : { ...presentWebhook(row), secret };
}

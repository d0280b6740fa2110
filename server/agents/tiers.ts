import type { Address } from 'viem';
import { chainEnabled, chainIfEnabled } from '../chain/client';
import { tokenBalance, tokenDecimals } from '../chain/tokens';
import { database, withTransaction } from '../core/db';
import { log } from '../core/log';
import { sharedCache } from '../core/shared-state';
import type { Queryable } from '../core/db/sql-runner';
import { emit } from '../events/emit';

export const TIER_ORDER = ['none', 'entry', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIER_ORDER)[number];

/** Whole platform tokens a tier needs (spec: Authentication, tiers). */
export const TIER_THRESHOLDS: readonly { tier: Exclude<Tier, 'none'>; tokens: bigint }[] = [
  { tier: 'enterprise', tokens: 50_000_000n },
  { tier: 'pro', tokens: 10_000_000n },
  { tier: 'entry', tokens: 1_000_000n },
];

/** How long a wallet's tier read from the chain is trusted before the next read (issue 11: at most 60 s). */
export const TIER_TTL_MS = 30_000;
/** How long a request waits for a tier reading before the stored tier answers. */
export const TIER_READ_WAIT_MS = 3_000;

/** True when `tier` is `required` or above (spec: pro for skill upload, entry for live smart money). */
export function tierAtLeast(tier: Tier, required: Tier): boolean {
  return TIER_ORDER.indexOf(tier) >= TIER_ORDER.indexOf(required);
}

/** The tier of a raw token balance with `decimals` decimals: thresholds compare exact integers. */
export function tierForBalance(balance: bigint, decimals: number): Tier {
  const unit = 10n ** BigInt(decimals);
  for (const { tier, tokens } of TIER_THRESHOLDS) if (balance >= tokens * unit) return tier;
  return 'none';
}

/** The one cache of a wallet's tier (keyed by the lower-case wallet), read at most every TIER_TTL_MS. */
const tierCache = sharedCache<Tier>('agents.tier-by-wallet', { ttlMs: TIER_TTL_MS, maxEntries: 50_000, dropOn: [] });
const cacheKey = (wallet: Address) => wallet.toLowerCase();

/** The wallet's tier as read within the last TIER_TTL_MS, or null. Synchronous: safe inside a transaction. */
export function lastKnownTier(wallet: Address): Tier | null {
  return tierCache().peek(cacheKey(wallet)) ?? null;
}

/** The best of the tiers a wallet's agents show ('none' without agents): the stored tier. */
export function bestTier(tiers: readonly string[]): Tier {
  let best: Tier = 'none';
  for (const tier of tiers) if (tierAtLeast(tier as Tier, best)) best = tier as Tier;
  return best;
}

async function storedTier(wallet: Address): Promise<Tier> {
  const rows = await database().sql.query<{ tier: string }>('SELECT tier FROM agents WHERE owner_wallet = $1', [wallet]);
  return bestTier(rows.map((row) => row.tier));
}

/**
 * Writes `tier` to every agent of `wallet` whose stored tier differs, and emits agent.tier_upgraded
 * for each in the same transaction. Returns the agents that moved.
 */
export async function applyTier(wallet: Address, tier: Tier): Promise<{ agentId: string; from: Tier }[]> {
  // Most refreshes change nothing: look before opening a transaction.
  const differ = await database().sql.query<{ id: string; tier: string }>(
    'SELECT id, tier FROM agents WHERE owner_wallet = $1 AND tier <> $2',
    [wallet, tier],
  );
  if (differ.length === 0) return [];
  return withTransaction(async (tx) => {
    const moved: { agentId: string; from: Tier }[] = [];
    for (const row of differ) {
      if (await setAgentTier(row.id, tier, tx.sql)) moved.push({ agentId: row.id, from: row.tier as Tier });
    }
    return moved;
  });
}

/** The tier of the wallet's platform-token balance on the chain; null without a chain or platform token. */
async function readFromChain(wallet: Address): Promise<Tier | null> {
  const context = await chainIfEnabled();
  const token = context?.addresses.platformToken;
  if (!context || !token) return null;
  const [balance, decimals] = await Promise.all([tokenBalance(token, wallet), tokenDecimals(token)]);
  return tierForBalance(balance, decimals);
}

/** Reads the wallet's platform-token balance and stores the resulting tier on its agents. */
async function readAndApply(wallet: Address): Promise<Tier> {
  const tier = await readFromChain(wallet);
  if (tier === null) return storedTier(wallet);
  await applyTier(wallet, tier);
  return tier;
}

/** The reading, or null when it takes longer than TIER_READ_WAIT_MS (it goes on; the caller decides what then). */
async function withinReadWait(reading: Promise<Tier>): Promise<Tier | null> {
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), TIER_READ_WAIT_MS);
    timer.unref();
  });
  return Promise.race([reading, slow]).finally(() => clearTimeout(timer));
}

/**
 * Sign-in's reading: the wallet's tier from the chain now, whatever the cache holds (as refreshTier), without
 * storing it: sign-in's own statement returns the tiers the wallet's agents show, and the caller stores the
 * reading only where they differ (no statement when nothing changed). Null without a chain or platform token,
 * and when the node fails or is slower than TIER_READ_WAIT_MS (the stored tier answers then; a late reading is
 * still stored when it arrives).
 */
export async function readTierNow(wallet: Address): Promise<Tier | null> {
  if (!chainEnabled()) return null;
  try {
    if (!(await chainIfEnabled())?.addresses.platformToken) return null;
    tierCache().delete(cacheKey(wallet));
    const reading = tierCache().get(cacheKey(wallet), async () => (await readFromChain(wallet)) ?? 'none');
    const tier = await withinReadWait(reading);
    if (tier !== null) return tier;
    reading.then((late) => applyTier(wallet, late)).catch(() => undefined);
    log.warn({ wallet }, 'tier read from the chain is slow; using the stored tier');
    return null;
  } catch (error) {
    log.warn({ wallet, err: (error as Error).message }, 'tier read from the chain failed; using the stored tier');
    return null;
  }
}

/**
 * A wallet's tier, the one every tier gate uses: from its platform-token holdings, read at most
 * every TIER_TTL_MS (stale on read means a fresh chain read). Without a chain (or while the node
 * fails) the last tier read from the chain, stored on the wallet's agents, answers.
 */
export async function tierOfWallet(wallet: Address): Promise<Tier> {
  // Without a chain the stored tier is the truth (and is read fresh: tests set it directly).
  if (!chainEnabled()) return storedTier(wallet);
  try {
    // A slow node must not hold up sign-in or a gate: after TIER_READ_WAIT_MS the stored tier
    // answers, and the reading, when it arrives, updates the agents and the cache.
    const reading = tierCache().get(cacheKey(wallet), () => readAndApply(wallet));
    const tier = await withinReadWait(reading);
    if (tier !== null) return tier;
    reading.catch(() => undefined);
    log.warn({ wallet }, 'tier read from the chain is slow; using the stored tier');
    return storedTier(wallet);
  } catch (error) {
    log.warn({ wallet, err: (error as Error).message }, 'tier read from the chain failed; using the stored tier');
    return storedTier(wallet);
  }
}

/** Reads the tier from the chain now (sign-in, the scheduled job), whatever the cache holds. */
export async function refreshTier(wallet: Address): Promise<Tier> {
  tierCache().delete(cacheKey(wallet));
  return tierOfWallet(wallet);
}

/** Drops the cached tier of a wallet (after a faucet or a deposit moved its tokens). */
export function forgetTier(wallet: Address): void {
  tierCache().delete(cacheKey(wallet));
}

/**
 * The scheduled refresh: every wallet with an unexpired bearer token or an API key used in the
 * last 24 hours gets a fresh chain read. Returns how many wallets were checked.
 */
export async function refreshActiveTiers(limit = 5000): Promise<number> {
  const context = await chainIfEnabled().catch(() => null);
  if (!context?.addresses.platformToken) return 0;
  const rows = await database().sql.query<{ wallet: string }>(
    `SELECT DISTINCT a.owner_wallet AS wallet FROM agents a
     WHERE EXISTS (SELECT 1 FROM access_tokens t WHERE t.wallet = a.owner_wallet AND t.expires_at > now() AND t.revoked_at IS NULL)
        OR EXISTS (SELECT 1 FROM api_keys k WHERE k.wallet = a.owner_wallet AND k.last_used_at > now() - interval '24 hours' AND k.revoked_at IS NULL)
     LIMIT $1`,
    [limit],
  );
  let checked = 0;
  for (const { wallet } of rows) {
    await refreshTier(wallet as Address);
    checked++;
  }
  return checked;
}

/**
 * Sets an agent's tier (the chain layer calls this when holdings change) and, when it changed,
 * emits agent.tier_upgraded in the same transaction: pass the transaction's runner. Any move
 * counts (up or down; the payload says which). Returns whether the tier changed.
 */
export async function setAgentTier(agentId: string, tier: Tier, runner: Queryable): Promise<boolean> {
  const rows = await runner.query<{ owner_wallet: string; handle: string; previous: string }>(
    `UPDATE agents a SET tier = $2, updated_at = now()
     FROM (SELECT id, tier AS previous FROM agents WHERE id = $1::uuid FOR UPDATE) old
     WHERE a.id = old.id AND old.previous <> $2
     RETURNING a.owner_wallet, a.handle, old.previous`,
    [agentId, tier],
  );
  const row = rows[0];
  if (!row) return false;
  const previous = row.previous as Tier;
  await emit(
    'agent.tier_upgraded',
    {
      agent_id: agentId,
      handle: row.handle,
      wallet_address: row.owner_wallet,
      previous_tier: previous,
      tier,
      direction: tierAtLeast(tier, previous) ? 'up' : 'down',
      changed_at: new Date().toISOString(),
    },
    runner,
  );
  return true;
}

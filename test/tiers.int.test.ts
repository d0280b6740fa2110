import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { refreshActiveTiers, refreshTier, tierOfWallet } from '../server/agents/tiers';
import { DEPLOYER_KEY } from '../server/chain/devnet/deploy';
import { database } from '../server/core/db';
import { useChain } from '../server/chain/client';
import { rpcRecorder, TOKEN_UNIT, useTestChain } from './chain';
import { newWallet, registerAgent, signIn } from './wallets';

// Tiers from platform-token holdings on a real chain (spec: Authentication, tiers).

const { chain, app } = useTestChain({ app: {} });
afterEach(() => {
  vi.useRealTimers();
});

async function storedTiers(wallet: Address): Promise<string[]> {
  const rows = await database().sql.query<{ tier: string }>('SELECT tier FROM agents WHERE owner_wallet = $1', [wallet]);
  return rows.map((row) => row.tier);
}

async function tierEvents(wallet: Address) {
  const rows = await database().sql.query<{ data: Record<string, unknown> }>(
    `SELECT data FROM events WHERE name = 'agent.tier_upgraded' AND data->>'wallet_address' = $1 ORDER BY id`,
    [wallet],
  );
  return rows.map((row) => row.data);
}

describe('tiers', () => {
  it.each([
    [0n, 'none'],
    [999_999n, 'none'],
    [1_000_000n, 'entry'],
    [9_999_999n, 'entry'],
    [10_000_000n, 'pro'],
    [49_999_999n, 'pro'],
    [50_000_000n, 'enterprise'],
  ])('%s whole tokens give %s at sign-in', async (tokens, tier) => {
    const account = newWallet();
    await registerAgent(app, account);
    if (tokens > 0n) await chain.giveTokens(account.address, tokens);
    const signedIn = await signIn(app, account, { agentPubkey: `pk-${account.address.slice(2, 10)}` });
    expect((signedIn as unknown as { tier: string }).tier).toBe(tier);
    expect(await storedTiers(account.address)).toEqual([tier]);
  });

  it('a wallet that already holds 1,000,000 tokens registers at tier entry (read at first sight, not only at sign-in)', async () => {
    const account = newWallet();
    await chain.giveTokens(account.address, 1_000_000n);
    const { response } = await registerAgent(app, account);
    expect(response.status).toBe(201);
    expect(response.body.tier).toBe('entry');
    expect(await storedTiers(account.address)).toEqual(['entry']);
    const profile = await app.get(`/api/agents/${response.body.id}/public-profile`);
    expect(profile.body.tier ?? profile.body.agent?.tier).toBe('entry');
  });

  it('respects decimals: one wei short of 1,000,000 tokens is no tier', async () => {
    const account = newWallet();
    await registerAgent(app, account);
    await chain.transfer(DEPLOYER_KEY, chain.deployment.platformToken, account.address, 1_000_000n * TOKEN_UNIT - 1n);
    expect(await tierOfWallet(account.address)).toBe('none');
  });

  it('caches a reading for at most 30 s, then reads the chain again and emits agent.tier_upgraded', async () => {
    const account = newWallet();
    const { response } = await registerAgent(app, account);
    expect(response.status).toBe(201);
    expect(await tierOfWallet(account.address)).toBe('none');
    await chain.giveTokens(account.address, 10_000_000n);
    // Still the cached reading.
    expect(await tierOfWallet(account.address)).toBe('none');
    expect(await tierEvents(account.address)).toEqual([]);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    expect(await tierOfWallet(account.address)).toBe('pro');
    expect(await storedTiers(account.address)).toEqual(['pro']);
    expect(await tierEvents(account.address)).toEqual([
      expect.objectContaining({ wallet_address: account.address, previous_tier: 'none', tier: 'pro', direction: 'up' }),
    ]);
    // The public views show it.
    const agentId = (
      await database().sql.query<{ id: string }>('SELECT id FROM agents WHERE owner_wallet = $1', [account.address])
    )[0]!.id;
    const profile = await app.get(`/api/v1/agents/${agentId}`);
    expect(profile.body.tier ?? profile.body.agent?.tier).toBe('pro');
  });

  it('moves down too when tokens leave, and emits once per change', async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    await registerAgent(app, account);
    await chain.giveTokens(account.address, 1_000_000n);
    await chain.setEth(account.address, 10n ** 18n);
    expect(((await signIn(app, account)) as unknown as { tier: string }).tier).toBe('entry');
    await chain.transfer(key, chain.deployment.platformToken, chain.deployment.treasury, 1n);
    expect(await refreshTier(account.address)).toBe('none');
    expect(await storedTiers(account.address)).toEqual(['none']);
    expect(await tierEvents(account.address)).toEqual([
      expect.objectContaining({ previous_tier: 'none', tier: 'entry', direction: 'up' }),
      expect.objectContaining({ previous_tier: 'entry', tier: 'none', direction: 'down' }),
    ]);
  });

  it('sign-in reads the chain every time but stores the tier only when the agents show another one', async () => {
    const account = newWallet();
    await registerAgent(app, account);
    await chain.giveTokens(account.address, 1_000_000n);
    const storeStatements = async () => {
      const query = vi.spyOn(database().sql, 'query');
      try {
        const signedIn = (await signIn(app, account)) as unknown as { tier: string };
        const stores = query.mock.calls.filter(([text]) =>
          String(text).includes('SELECT id, tier FROM agents WHERE owner_wallet'),
        );
        return { tier: signedIn.tier, stores: stores.length };
      } finally {
        query.mockRestore();
      }
    };
    expect(await storeStatements()).toEqual({ tier: 'entry', stores: 1 });
    expect(await storedTiers(account.address)).toEqual(['entry']);
    // Unchanged: read again, nothing stored.
    expect(await storeStatements()).toEqual({ tier: 'entry', stores: 0 });
    await chain.giveTokens(account.address, 9_000_000n);
    expect(await storeStatements()).toEqual({ tier: 'pro', stores: 1 });
    expect(await storedTiers(account.address)).toEqual(['pro']);
    expect(await tierEvents(account.address)).toHaveLength(2);
  });

  it('the scheduled job refreshes wallets in use', async () => {
    const account = newWallet();
    await registerAgent(app, account);
    await signIn(app, account);
    expect(await storedTiers(account.address)).toEqual(['none']);
    await chain.giveTokens(account.address, 50_000_000n);
    expect(await refreshActiveTiers()).toBeGreaterThanOrEqual(1);
    expect(await storedTiers(account.address)).toEqual(['enterprise']);
    expect(await tierEvents(account.address)).toHaveLength(1);
    // Nothing changed: no new event.
    await refreshActiveTiers();
    expect(await tierEvents(account.address)).toHaveLength(1);
  });

  it('a slow or failing node leaves the stored tier in force instead of holding up sign-in', async () => {
    const recorder = await rpcRecorder(chain.rpcUrl);
    const account = newWallet();
    await registerAgent(app, account);
    await chain.giveTokens(account.address, 10_000_000n);
    expect(await refreshTier(account.address)).toBe('pro');
    useChain(app.runtime, recorder.url, chain.deployment);
    try {
      recorder.down = true;
      expect(await refreshTier(account.address)).toBe('pro');
      recorder.down = false;
      // The chain now says enterprise, but answers only after 10 s: sign-in does not wait for it.
      await chain.giveTokens(account.address, 40_000_000n);
      recorder.delayMs = 10_000;
      const signedIn = await signIn(app, account);
      expect((signedIn as unknown as { tier: string }).tier).toBe('pro');
    } finally {
      recorder.delayMs = 0;
      useChain(app.runtime, chain.rpcUrl, chain.deployment);
      await recorder.close();
    }
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { chain as openChain, useChain } from '../server/chain/client';
import { tokenBalance } from '../server/chain/tokens';
import { startTestChain, useTestChain } from './chain';
import { startTestApp, type TestApp } from './harness';

// The bundled devnet as `npm start` runs it (no CHAIN_RPC_URL): started by the runtime, fixtures
// deployed on the first start, state kept in DATA_DIR across restarts; the faucet; health.

/** A test app that runs the real bundled devnet in `dataDir` (the harness disables the chain by default). */
async function appWithBundledDevnet(dataDir: string): Promise<TestApp> {
  const app = await startTestApp({ DATA_DIR: dataDir });
  app.runtime.state.delete('chain');
  return app;
}

describe('bundled devnet', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-devnet-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('deploys on the first start, and a second start reuses the saved state with balances intact', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const first = await appWithBundledDevnet(dataDir);
    let platformToken: string;
    try {
      const context = await openChain();
      expect(context.source).toBe('devnet');
      platformToken = context.addresses.platformToken!;
      const saved = JSON.parse(readFileSync(path.join(dataDir, 'devnet.json'), 'utf8'));
      expect(saved).toMatchObject({ chainId: 8453, platformToken, treasury: context.addresses.treasury });
      expect(saved.sampleTokens.map((token: { kind: string }) => token.kind).sort()).toEqual([
        'buyback',
        'clean',
        'fee_on_transfer',
        'honeypot',
        'locked_lp',
        'mintable',
        'proxy',
      ]);
      const health = await first.get('/api/v1/health');
      expect(health.body.issues_count).toBe(0);
      expect(health.body.checks).toContainEqual(
        expect.objectContaining({ name: 'chain', ok: true, detail: expect.stringContaining('bundled devnet') }),
      );
      const faucet = await first.post('/api/v1/devnet/faucet', { wallet_address: wallet, platform_tokens: 1_000_000, eth: 1 });
      expect(faucet.status).toBe(200);
      expect(faucet.body).toMatchObject({ tier: 'entry', platform_token_balance: '1000000', eth_balance: '1' });
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(dataDir, 'devnet', 'anvil-state.json'))).toBe(true);

    const second = await appWithBundledDevnet(dataDir);
    try {
      const context = await openChain();
      expect(context.addresses.platformToken).toBe(platformToken);
      expect(context.devnet!.deployedAt).toBe(JSON.parse(readFileSync(path.join(dataDir, 'devnet.json'), 'utf8')).deployedAt);
      expect(await tokenBalance(platformToken as `0x${string}`, wallet)).toBe(1_000_000n * 10n ** 18n);
      expect((await second.get('/api/v1/health')).body.issues_count).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe('faucet', () => {
  const { chain, app } = useTestChain({ app: {}, snapshots: false });

  it('refuses bad input', async () => {
    const response = await app.post('/api/v1/devnet/faucet', { wallet_address: 'nope', platform_tokens: -1 });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.details.fields).sort()).toEqual(['platform_tokens', 'wallet_address']);
    const tooMuch = await app.post('/api/v1/devnet/faucet', {
      wallet_address: chain.deployment.treasury,
      platform_tokens: 100_000_001,
    });
    expect(tooMuch.status).toBe(400);
  });

  it('is 404 against a configured node', async () => {
    useChain(app.runtime, chain.rpcUrl, null);
    try {
      const response = await app.post('/api/v1/devnet/faucet', { wallet_address: chain.deployment.treasury, platform_tokens: 1 });
      expect(response.status).toBe(404);
    } finally {
      useChain(app.runtime, chain.rpcUrl, chain.deployment);
    }
  });
});

describe('a configured node', () => {
  it('that is unreachable shows in health and makes chain endpoints 503', async () => {
    const treasury = '0x00000000000000000000000000000000000000aa';
    const app = await startTestApp({ CHAIN_RPC_URL: 'http://127.0.0.1:9', TREASURY_ADDRESS: treasury });
    try {
      const health = await app.get('/api/v1/health');
      expect(health.body.status).toBe('degraded');
      expect(health.body.issues_count).toBe(1);
      expect(health.body.checks).toContainEqual(expect.objectContaining({ name: 'chain', ok: false }));
      // The instructions still name the configured treasury.
      const instructions = await app.get('/api/v1/credits/deposit');
      expect(instructions.body.treasury_address).toBe(getAddress(treasury));
      expect(instructions.body.confirmations).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('uses exactly the configured addresses and deploys nothing', async () => {
    const chain = await startTestChain();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-configured-'));
    const treasury = privateKeyToAccount(generatePrivateKey()).address;
    const app = await startTestApp({
      DATA_DIR: dataDir,
      CHAIN_RPC_URL: chain.rpcUrl,
      PLATFORM_TOKEN_ADDRESS: chain.deployment.platformToken,
      TREASURY_ADDRESS: treasury,
    });
    try {
      const context = await openChain();
      expect(context.source).toBe('configured');
      expect(context.addresses.treasury).toBe(treasury);
      const instructions = await app.get('/api/v1/credits/deposit');
      expect(instructions.body).toMatchObject({
        treasury_address: treasury,
        accepted_tokens: [{ address: chain.deployment.platformToken, rate_claw_per_token: 1 }],
        confirmations: 2,
      });
      expect((await app.get('/api/v1/health')).body.issues_count).toBe(0);
      expect(existsSync(path.join(dataDir, 'devnet.json'))).toBe(false);
      // No faucet against a configured node.
      expect((await app.post('/api/v1/devnet/faucet', { wallet_address: treasury, platform_tokens: 1 })).status).toBe(404);
    } finally {
      await app.close();
      await chain.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on another chain id refuses to start the chain', async () => {
    const chain = await startTestChain();
    const app = await startTestApp({ CHAIN_RPC_URL: chain.rpcUrl, CHAIN_ID: '1' });
    try {
      await expect(openChain()).rejects.toMatchObject({ code: 'chain_unavailable' });
      const health = await app.get('/api/v1/health');
      expect(health.body.checks).toContainEqual(
        expect.objectContaining({ name: 'chain', ok: false, detail: expect.stringContaining('CHAIN_ID') }),
      );
    } finally {
      await app.close();
      await chain.stop();
    }
  });
});

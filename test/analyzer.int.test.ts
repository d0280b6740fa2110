import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getAddress, type Address } from 'viem';
import { forgetAnalyses } from '../server/analyzer/analyze-request';
import { analyzeContract } from '../server/analyzer/analyze-contract';
import { chain as chain_, disableChain, useChain } from '../server/chain/client';
import { database } from '../server/core/db';
import { deployAnalyzerFixtures, type AnalyzerFixtures } from './analyzer-fixtures';
import { rpcRecorder, useTestChain } from './chain';
import { newWallet, registerAgent, signatureHeaders, signIn } from './wallets';

// The contract analyzer on real bytecode: the devnet's sample tokens and the analyzer fixtures
// (test/analyzer-fixtures.ts), trades simulated with eth_call and state overrides (issue 13).

let fx: AnalyzerFixtures;
let ipCounter = 0;
// Each test analyzes from its own IP, so the free limit of one test never touches another.
let ip = '';

const { chain, app } = useTestChain({
  app: async (started) => {
    fx = await deployAnalyzerFixtures(started.client, started.rpcUrl, started.deployment);
    return { TRUST_PROXY: 'true', LIQUIDITY_LOCKERS: fx.lockers.join(',') };
  },
});
beforeEach(() => {
  ip = `198.51.100.${++ipCounter}`;
});
afterEach(() => {
  forgetAnalyses();
});

async function analyze(address: Address | string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return app.post('/api/analyze', { contract_address: address, ...extra }, { headers: { 'X-Forwarded-For': ip, ...headers } });
}

async function analysisOf(address: Address) {
  const response = await analyze(address);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Moves the chain `days` on (the cache is keyed by block, so the next analysis reads afresh). */
async function passDays(days: number) {
  await chain.client.request({ method: 'evm_increaseTime' as never, params: [days * 86_400] as never });
  await chain.mine();
  forgetAnalyses();
}

const factorCodes = (body: { risk_factors: string[] }) => body.risk_factors.map((factor) => factor.split(':')[0]);

describe('POST /api/analyze on the devnet fixtures', () => {
  it('grades the clean token A or B: not a honeypot, renounced, LP burned (locked forever), no taxes', async () => {
    const body = await analysisOf(fx.sample.clean);
    expect(['A', 'B']).toContain(body.safety_rating);
    expect(body.risk_level).toBe('low');
    expect(body.is_honeypot).toBe(false);
    expect(body.ownership).toEqual({
      is_renounced: true,
      is_multisig: false,
      owner_address: '0x0000000000000000000000000000000000000000',
    });
    expect(body.liquidity).toEqual({ is_locked: true, lock_duration_days: 36_500 });
    expect(body.fees).toEqual({ buy_fee_percent: 0, sell_fee_percent: 0, transfer_fee_percent: 0 });
    expect(body.buyback).toEqual({ has_buyback: false });
    expect(body.contract_address).toBe(fx.sample.clean);
    expect(body.chain_id).toBe(8453);
    expect(body.summary).toContain('CLEAN');
    expect(Date.parse(body.analyzed_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('grades the honeypot F, critical, is_honeypot, with the revert reason', async () => {
    const body = await analysisOf(fx.sample.honeypot);
    expect(body.safety_rating).toBe('F');
    expect(body.risk_level).toBe('critical');
    expect(body.is_honeypot).toBe(true);
    // The token's own reason, not the router's TRANSFER_FROM_FAILED.
    expect(body.risk_factors.find((factor: string) => factor.startsWith('honeypot:'))).toContain('trading paused');
  });

  it('measures different buy, sell and transfer taxes within half a point of the contract settings', async () => {
    const body = await analysisOf(fx.tax);
    expect(Math.abs(body.fees.buy_fee_percent - fx.taxRates.buy)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(body.fees.sell_fee_percent - fx.taxRates.sell)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(body.fees.transfer_fee_percent - fx.taxRates.transfer)).toBeLessThanOrEqual(0.5);
    expect(body.is_honeypot).toBe(false);
    expect(factorCodes(body)).toContain('high_tax');
  });

  it('measures the devnet fee-on-transfer token at 10% every way', async () => {
    const body = await analysisOf(fx.sample.fee_on_transfer);
    for (const fee of Object.values(body.fees) as number[]) expect(Math.abs(fee - 10)).toBeLessThanOrEqual(0.5);
  });

  it('reports the mintable token as not renounced, with a mint factor confirmed by simulation', async () => {
    const body = await analysisOf(fx.sample.mintable);
    expect(body.ownership.is_renounced).toBe(false);
    expect(body.ownership.owner_address).toBe(chain.deployment.deployer);
    const mint = body.risk_factors.find((factor: string) => factor.startsWith('mint_capability:'));
    expect(mint).toContain('mint(address,uint256)');
    expect(mint).toContain('confirmed by simulation');
    expect(['C', 'D', 'F']).toContain(body.safety_rating);
  });

  it('reports the ERC-1967 proxy with a proxy factor naming the implementation', async () => {
    const body = await analysisOf(fx.sample.proxy);
    const slot = await chain.client.getStorageAt({
      address: fx.sample.proxy,
      slot: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
    });
    const implementation = getAddress(`0x${slot!.slice(-40)}`);
    expect(body.risk_factors.find((factor: string) => factor.startsWith('proxy:'))).toContain(implementation);
  });

  it('reports a token owned by a 2-of-3 Safe as multisig', async () => {
    const body = await analysisOf(fx.safeOwned);
    expect(body.ownership).toEqual({ is_renounced: false, is_multisig: true, owner_address: fx.safe });
    expect(body.summary).toContain('2-of-3 multisig');
  });

  it('reports the devnet 1-of-1 Safe as a single key, not a multisig', async () => {
    // The mintable token handed to the devnet's 1-of-1 Safe.
    await chain.deployer.writeContract({
      address: fx.sample.mintable,
      abi: [
        {
          type: 'function',
          name: 'transferOwnership',
          inputs: [{ type: 'address' }],
          outputs: [],
          stateMutability: 'nonpayable',
        },
      ],
      functionName: 'transferOwnership',
      args: [chain.deployment.safe],
      chain: chain.deployer.chain,
      account: chain.deployer.account!,
    });
    await chain.mine();
    const body = await analysisOf(fx.sample.mintable);
    expect(body.ownership.is_multisig).toBe(false);
    expect(body.ownership.owner_address).toBe(chain.deployment.safe);
    expect(factorCodes(body)).toContain('single_key_safe');
  });

  it('reads an UNCX-style lock: is_locked with the remaining days', async () => {
    const body = await analysisOf(fx.uncxLocked);
    expect(body.liquidity).toEqual({ is_locked: true, lock_duration_days: fx.uncxLockDays });
    expect(body.ownership.is_renounced).toBe(true);
  });

  it('counts the days down as the chain moves on', async () => {
    await chain.client.request({ method: 'evm_increaseTime' as never, params: [10 * 86_400] as never });
    await chain.mine();
    const body = await analysisOf(fx.uncxLocked);
    expect(body.liquidity).toEqual({ is_locked: true, lock_duration_days: fx.uncxLockDays - 10 });
  });

  for (const [name, key] of [
    ['PinkLock V2', 'pinkLocked'],
    ['Team Finance', 'teamFinanceLocked'],
  ] as const) {
    it(`reads a ${name}-style lock: is_locked with the remaining days; an expired lock is not locked`, async () => {
      const { token, days } = fx[key];
      const body = await analysisOf(token);
      expect(body.liquidity).toEqual({ is_locked: true, lock_duration_days: days });
      expect(factorCodes(body)).not.toContain('liquidity_unlocked');
      await passDays(10);
      expect((await analysisOf(token)).liquidity).toEqual({ is_locked: true, lock_duration_days: days - 10 });
      await passDays(days - 10 + 1);
      const expired = await analysisOf(token);
      expect(expired.liquidity).toEqual({ is_locked: false, lock_duration_days: 0 });
      expect(factorCodes(expired)).toContain('liquidity_unlocked');
    });
  }

  it('reads the devnet LiquidityLocker (its Locked events) for the LOCK token', async () => {
    const body = await analysisOf(fx.sample.locked_lp);
    expect(body.liquidity.is_locked).toBe(true);
    expect(body.liquidity.lock_duration_days).toBeGreaterThanOrEqual(360);
    expect(body.liquidity.lock_duration_days).toBeLessThanOrEqual(365);
  });

  it('does not count a locker that is not configured in LIQUIDITY_LOCKERS', async () => {
    const context = await chain_();
    const { analysis } = await analyzeContract(fx.uncxLocked, {
      context: { ...context, addresses: { ...context.addresses, liquidityLockers: [chain.deployment.liquidityLocker] } },
    });
    expect(analysis.liquidity).toEqual({ is_locked: false, lock_duration_days: 0 });
    expect(factorCodes(analysis)).toContain('liquidity_unlocked');
  });

  it('reports unlocked liquidity held by the deployer', async () => {
    const body = await analysisOf(fx.sample.mintable);
    expect(body.liquidity).toEqual({ is_locked: false, lock_duration_days: 0 });
    expect(factorCodes(body)).toContain('liquidity_unlocked');
  });

  it('finds the buyback function', async () => {
    const body = await analysisOf(fx.sample.buyback);
    expect(body.buyback).toEqual({ has_buyback: true });
    const factor = body.risk_factors.find((entry: string) => entry.startsWith('buyback:'));
    expect(factor).toContain('buyback(address,uint256)');
    expect(factor).toContain('confirmed by simulation');
  });

  it('catches a delayed honeypot by simulating 7 days ahead, while selling works today', async () => {
    const body = await analysisOf(fx.delayedHoneypot);
    expect(body.is_honeypot).toBe(true);
    expect(body.safety_rating).toBe('F');
    expect(body.risk_factors.find((factor: string) => factor.startsWith('delayed_honeypot:'))).toContain('7 days ahead');
    expect(factorCodes(body)).not.toContain('honeypot');
    expect(body.fees.sell_fee_percent).toBe(0);
  });

  it('sees the delayed honeypot at +1 day once the chain is 2 days older', async () => {
    await chain.client.request({ method: 'evm_increaseTime' as never, params: [2 * 86_400 + 60] as never });
    await chain.mine();
    const body = await analysisOf(fx.delayedHoneypot);
    expect(body.risk_factors.find((factor: string) => factor.startsWith('delayed_honeypot:'))).toContain('1 days ahead');
  });

  it('simulates through SwapRouter02 when the only pool is on Uniswap V3', async () => {
    const body = await analysisOf(fx.v3Only);
    expect(body.is_honeypot).toBe(false);
    expect(body.fees).toEqual({ buy_fee_percent: 0, sell_fee_percent: 0, transfer_fee_percent: 0 });
    expect(body.ownership.is_renounced).toBe(true);
    // The deployer holds the only position NFT.
    expect(body.liquidity).toEqual({ is_locked: false, lock_duration_days: 0 });
    expect(body.risk_factors.find((factor: string) => factor.startsWith('liquidity_unlocked:'))).toContain('V3');
  });

  it('reports a V3 position NFT sent to 0x…dEaD as liquidity locked forever', async () => {
    const body = await analysisOf(fx.v3Burned);
    expect(body.liquidity).toEqual({ is_locked: true, lock_duration_days: 36_500 });
    expect(body.is_honeypot).toBe(false);
    expect(['A', 'B']).toContain(body.safety_rating);
  });

  it('reads a V3 position locked in an UNCX-V3-style locker, and not once the lock has expired', async () => {
    const body = await analysisOf(fx.v3Locked.token);
    expect(body.liquidity).toEqual({ is_locked: true, lock_duration_days: fx.v3Locked.days });
    await passDays(fx.v3Locked.days + 1);
    const expired = await analysisOf(fx.v3Locked.token);
    expect(expired.liquidity).toEqual({ is_locked: false, lock_duration_days: 0 });
  });

  it('catches a honeypot whose only pool is on Uniswap V3', async () => {
    const body = await analysisOf(fx.v3Honeypot);
    expect(body.is_honeypot).toBe(true);
    expect(body.safety_rating).toBe('F');
  });

  it('grades a token with no pool (the platform token is traded; WETH itself has none with itself)', async () => {
    const token = await chain.deployer.deployContract({
      abi: [
        {
          type: 'constructor',
          inputs: [{ type: 'string' }, { type: 'string' }, { type: 'uint256' }],
          stateMutability: 'nonpayable',
        },
      ],
      bytecode: (await import('../server/chain/artifacts')).artifact('PlatformToken').bytecode,
      args: ['Lonely', 'LONE', 10n ** 24n],
      chain: chain.deployer.chain,
      account: chain.deployer.account!,
    });
    const receipt = await chain.client.waitForTransactionReceipt({ hash: token, pollingInterval: 20 });
    const body = await analysisOf(receipt.contractAddress!);
    expect(factorCodes(body)).toContain('no_liquidity_pool');
    expect(body.is_honeypot).toBe(false);
    expect(body.liquidity.is_locked).toBe(false);
  });
});

describe('POST /api/analyze: the example-skill variant', () => {
  it('answers risk_score, verdict, flags and details when chain is sent', async () => {
    const response = await analyze(fx.sample.honeypot, { chain: 'base' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      contract_address: fx.sample.honeypot,
      chain: 'base',
      risk_score: 100,
      verdict: 'danger',
    });
    expect(response.body.flags).toContain('honeypot');
    expect(response.body.details).toMatchObject({
      honeypot: true,
      owner_renounced: false,
      liquidity_locked: false,
      proxy_contract: false,
    });
    expect(response.body).not.toHaveProperty('safety_rating');
  });

  it('says safe for the clean token and names the proxy and mint authority elsewhere', async () => {
    expect((await analyze(fx.sample.clean, { chain: 'base' })).body).toMatchObject({ verdict: 'safe', risk_score: 0 });
    const proxy = await analyze(fx.sample.proxy, { wallet_address: newWallet().address });
    expect(proxy.body.details.proxy_contract).toBe(true);
    const mint = await analyze(fx.sample.mintable, { chain: 'base' });
    expect(mint.body.details.mint_authority).toBe(true);
    expect(mint.body.verdict).toBe('caution');
  });

  it('refuses a chain this instance does not serve', async () => {
    const response = await analyze(fx.sample.clean, { chain: 'base-sepolia' });
    expect(response.status).toBe(400);
    expect(response.body.details.supported_chain_id).toBe(8453);
  });
});

describe('POST /api/analyze: refusals and failures', () => {
  it('refuses a wrong chain_id with 400', async () => {
    const response = await analyze(fx.sample.clean, { chain_id: 1 });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_request');
    expect(response.body.details.fields).toHaveProperty('chain_id');
  });

  it('refuses chain and chain_id that disagree', async () => {
    expect((await analyze(fx.sample.clean, { chain: 'base', chain_id: 84532 })).status).toBe(400);
  });

  it('refuses a malformed address with 400', async () => {
    expect((await analyze('0x1234')).status).toBe(400);
    expect((await app.post('/api/analyze', {}, { headers: { 'X-Forwarded-For': ip } })).status).toBe(400);
  });

  it('answers 422 not_a_contract for an address without code', async () => {
    const response = await analyze(newWallet().address);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('not_a_contract');
    expect(response.body.details.reason).toBe('no_code');
  });

  it('answers 503 when the node is down, and 503 without a chain', async () => {
    const recorder = await rpcRecorder(chain.rpcUrl);
    try {
      useChain(app.runtime, recorder.url, chain.deployment);
      recorder.down = true;
      const response = await analyze(fx.sample.clean);
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('chain_unavailable');
      disableChain(app.runtime);
      const none = await analyze(fx.sample.clean);
      expect(none.status).toBe(503);
      expect(none.body.code).toBe('chain_unavailable');
    } finally {
      useChain(app.runtime, chain.rpcUrl, chain.deployment);
      await recorder.close();
    }
  });
});

/** A JSON-RPC proxy that refuses eth_call with block overrides, as some providers do (single calls and batches). */
async function nodeWithoutBlockOverrides(target: string) {
  const { createServer } = await import('node:http');
  type Call = { id: number; method: string; params: unknown[] };
  const answer = (call: Call): Promise<unknown> =>
    call.method === 'eth_call' && call.params.length >= 4
      ? Promise.resolve({ jsonrpc: '2.0', id: call.id, error: { code: -32602, message: 'block overrides are not supported' } })
      : fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) }).then(
          (upstream) => upstream.json(),
        );
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString()) as Call | Call[];
      const answers = Promise.all((Array.isArray(parsed) ? parsed : [parsed]).map(answer));
      void answers.then((list) =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(Array.isArray(parsed) ? list : list[0])),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('POST /api/analyze: a node without block overrides', () => {
  it("still answers from today's simulation and says the recheck is missing", async () => {
    const node = await nodeWithoutBlockOverrides(chain.rpcUrl);
    try {
      useChain(app.runtime, node.url, chain.deployment);
      const body = await analysisOf(fx.sample.honeypot);
      expect(body.is_honeypot).toBe(true);
      expect(factorCodes(body)).toContain('recheck_unavailable');
      const clean = await analysisOf(fx.sample.clean);
      expect(clean.safety_rating).toBe('A');
      expect(factorCodes(clean)).toEqual(['recheck_unavailable']);
    } finally {
      useChain(app.runtime, chain.rpcUrl, chain.deployment);
      await node.close();
    }
  });
});

describe('POST /api/analyze: limits, cache and events', () => {
  it('gives 5 free analyses per IP a day, then 402 with an x402 offer (PAYMENT-REQUIRED) and Retry-After; other IPs are not affected', async () => {
    for (let i = 0; i < 5; i++) expect((await analyze(fx.sample.clean)).status).toBe(200);
    const sixth = await analyze(fx.sample.clean);
    expect(sixth.status).toBe(402);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sixth.headers.get('payment-required')).toBeTruthy();
    expect(sixth.body).toMatchObject({ code: 'payment_required', details: { reason: 'free_limit_reached' } });
    ip = '198.51.100.250';
    expect((await analyze(fx.sample.clean)).status).toBe(200);
  });

  it('does not count refused requests (no code, wrong chain) against the free limit', async () => {
    for (let i = 0; i < 5; i++) expect((await analyze(newWallet().address)).status).toBe(422);
    expect((await analyze(fx.sample.clean, { chain_id: 1 })).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await analyze(fx.sample.clean)).status).toBe(200);
    expect((await analyze(fx.sample.clean)).status).toBe(402);
  });

  it('lets an entry-tier caller analyze without limit, while a caller without a tier is limited', async () => {
    const whale = newWallet();
    await registerAgent(app, whale);
    await chain.giveTokens(whale.address, 1_000_000n);
    const { token } = await signIn(app, whale);
    for (let i = 0; i < 7; i++) {
      const response = await app.post(
        '/api/analyze',
        { contract_address: fx.sample.clean },
        { token, headers: { 'X-Forwarded-For': ip } },
      );
      expect(response.status).toBe(200);
    }
    const small = newWallet();
    await registerAgent(app, small);
    const smallToken = (await signIn(app, small)).token;
    ip = '198.51.100.251';
    const analyzeAsSmall = async () =>
      (
        await app.post(
          '/api/analyze',
          { contract_address: fx.sample.clean },
          { token: smallToken, headers: { 'X-Forwarded-For': ip } },
        )
      ).status;
    for (let i = 0; i < 5; i++) expect(await analyzeAsSmall()).toBe(200);
    expect(await analyzeAsSmall()).toBe(402);
  });

  it('accepts signature headers signing "Analyze contract <address>" for the tier check', async () => {
    const whale = newWallet();
    await chain.giveTokens(whale.address, 1_000_000n);
    for (let i = 0; i < 6; i++) {
      const headers = await signatureHeaders(whale, `Analyze contract ${fx.sample.clean}`);
      const response = await analyze(fx.sample.clean, { wallet_address: whale.address }, headers);
      expect(response.status, response.text).toBe(200);
      expect(response.body.verdict).toBe('safe');
    }
    // Headers signed for another contract authorize nothing.
    const wrong = await signatureHeaders(whale, `Analyze contract ${fx.sample.honeypot}`);
    expect((await analyze(fx.sample.clean, {}, wrong)).status).toBe(401);
  });

  it('does not lift the limit for a wallet_address the request is not authenticated as', async () => {
    const whale = newWallet();
    await chain.giveTokens(whale.address, 1_000_000n);
    for (let i = 0; i < 5; i++) expect((await analyze(fx.sample.clean, { wallet_address: whale.address })).status).toBe(200);
    expect((await analyze(fx.sample.clean, { wallet_address: whale.address })).status).toBe(402);
  });

  it('reuses a cached result within the block range and reads the chain again after it', async () => {
    const recorder = await rpcRecorder(chain.rpcUrl);
    useChain(app.runtime, recorder.url, chain.deployment);
    try {
      const first = await analysisOf(fx.sample.fee_on_transfer);
      const cold = recorder.methods.length;
      expect(recorder.methods.filter((method) => method === 'eth_call').length).toBeGreaterThanOrEqual(3);
      const second = await analysisOf(fx.sample.fee_on_transfer);
      expect(second.analyzed_at).toBe(first.analyzed_at);
      // Only the latest block is read for a cached answer.
      expect(recorder.methods.slice(cold)).toEqual(['eth_getBlockByNumber']);
      await chain.mine(25);
      const third = await analysisOf(fx.sample.fee_on_transfer);
      expect(third.analyzed_at).not.toBe(first.analyzed_at);
    } finally {
      useChain(app.runtime, chain.rpcUrl, chain.deployment);
      await recorder.close();
    }
  });

  it('emits scan.completed to the requester, and nothing for an anonymous request', async () => {
    const before = await database().sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE name = 'scan.completed'`,
    );
    await analysisOf(fx.sample.clean);
    const after = await database().sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE name = 'scan.completed'`,
    );
    expect(after[0]!.n).toBe(before[0]!.n);

    const account = newWallet();
    await registerAgent(app, account);
    const { token } = await signIn(app, account);
    const response = await app.post(
      '/api/analyze',
      { contract_address: fx.sample.honeypot },
      { token, headers: { 'X-Forwarded-For': ip } },
    );
    expect(response.status).toBe(200);
    const rows = await database().sql.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM events WHERE name = 'scan.completed' AND data->>'requested_by' = $1`,
      [account.address],
    );
    expect(rows.map((row) => row.data)).toEqual([
      expect.objectContaining({ contract_address: fx.sample.honeypot, chain_id: 8453, safety_rating: 'F', is_honeypot: true }),
    ]);
  });
});

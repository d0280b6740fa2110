import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { getAddress, type Address } from 'viem';
import { forgetAnalyses } from '../server/analyzer/analyze-request';
import { CHECK_NAMES, type CheckName, type Checks } from '../server/analyzer/checks';
import { deployAnalyzerFixtures, type AnalyzerFixtures } from './analyzer-fixtures';
import { useChain } from '../server/chain/client';
import { HOLDER_MAX_PAGES } from '../server/analyzer/read-holders';
import { rpcRecorder, useTestChain } from './chain';

// The GoPlus-style checks, holders, creator, simulation figures and flags (issue 25) on real
// bytecode: one token per risky owner power (contracts/fixtures/RiskTokens.sol) with V2 liquidity on
// the test devnet, and the devnet's clean token. Every check of every fixture is asserted.

let fx: AnalyzerFixtures;
let ipCounter = 0;
const DEAD = getAddress('0x000000000000000000000000000000000000dEaD');

const { chain, app } = useTestChain({
  app: async (started) => {
    fx = await deployAnalyzerFixtures(started.client, started.rpcUrl, started.deployment);
    return { TRUST_PROXY: 'true', LIQUIDITY_LOCKERS: fx.lockers.join(',') };
  },
});
afterEach(() => {
  forgetAnalyses();
});

async function analysisOf(address: Address) {
  const response = await app.post(
    '/api/analyze',
    { contract_address: address },
    { headers: { 'X-Forwarded-For': `198.51.100.${++ipCounter}` } },
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** A cold analysis of a token with owner powers: RPC calls, and HTTP round trips (batched calls). */
const BOUND_CALLS = 150;
const BOUND_REQUESTS = 14;

const allFalse = (): Checks => Object.fromEntries(CHECK_NAMES.map((name) => [name, false])) as Checks;
const flagCodes = (body: { flags: { code: string }[] }) => body.flags.map((flag) => flag.code);

describe('POST /api/analyze: checks on the clean token', () => {
  it('answers every check false, no flags, grade A or B, holders pair and burn, simulation 0% tax and 100% sellable', async () => {
    const body = await analysisOf(fx.sample.clean);
    expect(body.checks).toEqual(allFalse());
    expect(body.flags).toEqual([]);
    expect(['A', 'B']).toContain(body.safety_rating);
    expect(body.simulation).toMatchObject({ buy_tax: 0, sell_tax: 0, transfer_tax: 0, max_sell_percent: 100 });
    expect(body.simulation.buy_gas).toBeGreaterThan(50_000);
    expect(body.simulation.sell_gas).toBeGreaterThan(50_000);
    expect(body.holders.holder_count).toBe(2);
    expect(body.holders.top10_percent).toBe(100);
    const pair = chain.deployment.sampleTokens.find((token) => token.kind === 'clean')!.pair!;
    expect(body.holders.top_holders).toEqual([
      { address: DEAD, percent: 90, is_contract: false, is_locked: true, tag: 'burn' },
      { address: getAddress(pair), percent: 10, is_contract: true, is_locked: false, tag: 'pair' },
    ]);
    expect(body.creator).toEqual({ address: chain.deployment.deployer, balance_percent: 0 });
    expect(body.owner_balance_percent).toBeNull();
  });
});

describe('POST /api/analyze: one risky power per fixture', () => {
  const cases: {
    name: string;
    token: () => Address;
    checks: Partial<Checks>;
    rating: string[];
    flags: string[];
  }[] = [
    {
      name: 'an owner who can blacklist (a transfer fails after the owner blocks the holder)',
      token: () => fx.risk.blacklist,
      checks: { is_blacklisted: true },
      rating: ['D'],
      flags: ['is_blacklisted'],
    },
    {
      name: 'whitelist-only trading (a fresh account cannot buy until the owner lists it)',
      token: () => fx.risk.whitelist,
      checks: { is_whitelisted: true, cannot_buy: true, cannot_sell_all: null, trading_cooldown: null, external_call: null },
      rating: ['F'],
      flags: ['is_whitelisted', 'cannot_buy', 'unverified_owner_privileges'],
    },
    {
      name: 'max transaction and max wallet with setters',
      token: () => fx.risk.antiWhale,
      checks: { is_anti_whale: true, anti_whale_modifiable: true },
      rating: ['B', 'C'],
      flags: ['is_anti_whale', 'anti_whale_modifiable'],
    },
    {
      name: 'a max transaction below the default buy size (the buy is retried smaller, not reported as failing)',
      token: () => fx.risk.tightAntiWhale,
      checks: { is_anti_whale: true, anti_whale_modifiable: true },
      rating: ['B', 'C'],
      flags: ['is_anti_whale', 'anti_whale_modifiable'],
    },
    {
      name: 'a cooldown between sells',
      token: () => fx.risk.cooldown,
      checks: { trading_cooldown: true },
      rating: ['B', 'C'],
      flags: ['trading_cooldown'],
    },
    {
      name: 'pausable transfers',
      token: () => fx.risk.pausable,
      checks: { transfer_pausable: true },
      rating: ['D'],
      flags: ['transfer_pausable'],
    },
    {
      name: 'a hidden owner (renounced, a second role can still change the fee)',
      token: () => fx.risk.hiddenOwner,
      checks: { hidden_owner: true, slippage_modifiable: true },
      rating: ['D'],
      flags: ['hidden_owner', 'slippage_modifiable'],
    },
    {
      name: 'renounced ownership with a recover function',
      token: () => fx.risk.recoverable,
      checks: { can_take_back_ownership: true },
      rating: ['D'],
      flags: ['can_take_back_ownership'],
    },
    {
      name: 'an owner balance setter',
      token: () => fx.risk.balanceSetter,
      checks: { owner_change_balance: true },
      rating: ['D'],
      flags: ['owner_change_balance'],
    },
    {
      name: 'selfdestruct',
      token: () => fx.risk.selfdestruct,
      checks: { selfdestruct: true },
      rating: ['B', 'C'],
      flags: ['selfdestruct'],
    },
    {
      name: 'a fee receiver called on every transfer that the owner can replace',
      token: () => fx.risk.externalCall,
      checks: { external_call: true },
      rating: ['B', 'C'],
      flags: ['external_call'],
    },
    {
      name: 'a blacklist, a pause and a balance setter behind unknown function names, by behaviour alone',
      token: () => fx.risk.obscure,
      checks: { is_blacklisted: true, owner_change_balance: true, transfer_pausable: true },
      rating: ['D'],
      flags: ['is_blacklisted', 'owner_change_balance', 'transfer_pausable'],
    },
    {
      name: 'a pause behind an owner-only switch f(bool) with an unknown name',
      token: () => fx.risk.obscureSwitch,
      checks: { transfer_pausable: true },
      rating: ['D'],
      flags: ['transfer_pausable'],
    },
    {
      name: 'a hidden keeper (renounced) who can burn holders through an unknown function',
      token: () => fx.risk.obscureKeeper,
      checks: { hidden_owner: true, owner_change_balance: true },
      rating: ['D'],
      flags: ['hidden_owner', 'owner_change_balance'],
    },
    {
      name: 'a sell limit of 10% per transaction',
      token: () => fx.risk.sellLimit,
      checks: { cannot_sell_all: true },
      rating: ['F'],
      flags: ['cannot_sell_all'],
    },
  ];
  for (const { name, token, checks, rating, flags } of cases) {
    it(`finds ${name}`, async () => {
      const body = await analysisOf(token());
      expect(body.checks).toEqual({ ...allFalse(), ...checks });
      expect(rating).toContain(body.safety_rating);
      expect(flagCodes(body).sort()).toEqual([...flags].sort());
      for (const flag of body.flags) expect(['info', 'low', 'medium', 'high', 'critical']).toContain(flag.severity);
      expect(body.is_honeypot).toBe(false);
      // Each risk token keeps no supply with its deployer (burned): pair and 0x…dEaD only.
      expect(body.creator).toEqual({ address: chain.deployment.deployer, balance_percent: 0 });
      expect(body.holders.top_holders.map((holder: { tag: string }) => holder.tag).sort()).toEqual(
        body.checks.cannot_buy ? ['burn', 'pair'] : ['burn', 'pair', null].filter((tag) => tag !== null),
      );
      const renounced = ['hidden_owner', 'can_take_back_ownership'].some((check) => checks[check as CheckName]);
      if (checks.hidden_owner)
        expect(body.flags.find((flag: { code: string }) => flag.code === 'hidden_owner').message).toContain(
          token() === fx.risk.obscureKeeper ? fx.risk.keeper : fx.risk.hiddenOperator,
        );
      expect(body.owner_balance_percent).toBe(renounced ? null : 0);
    });
  }

  it('measures the largest sellable share of the sell-limit token by bisection (10%)', async () => {
    const body = await analysisOf(fx.risk.sellLimit);
    expect(Math.abs(body.simulation.max_sell_percent - 10)).toBeLessThanOrEqual(0.5);
    expect(body.simulation.sell_tax).toBe(0);
    expect(body.flags.find((flag: { code: string }) => flag.code === 'cannot_sell_all').severity).toBe('critical');
  });

  it('answers null simulation figures when the buy fails (whitelist), never 0', async () => {
    const body = await analysisOf(fx.risk.whitelist);
    expect(body.simulation).toEqual({
      buy_tax: null,
      sell_tax: null,
      transfer_tax: null,
      buy_gas: null,
      sell_gas: null,
      max_sell_percent: null,
    });
  });

  it('caps a token with one wallet holding 90% at C, naming the wallet', async () => {
    const body = await analysisOf(fx.risk.concentrated);
    expect(body.checks).toEqual(allFalse());
    expect(body.safety_rating).toBe('C');
    expect(flagCodes(body)).toEqual(['holder_concentration']);
    expect(body.flags[0].message).toContain(fx.risk.whale);
    expect(body.holders.top_holders[0]).toEqual({
      address: fx.risk.whale,
      percent: 90,
      is_contract: false,
      is_locked: false,
      tag: null,
    });
    expect(body.holders.holder_count).toBe(2);
  });

  it('gives the example-skill variant every check in details', async () => {
    const response = await app.post(
      '/api/analyze',
      { contract_address: fx.risk.blacklist, chain: 'base' },
      { headers: { 'X-Forwarded-For': `198.51.100.${++ipCounter}` } },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.details).toMatchObject({ ...allFalse(), is_blacklisted: true, blacklist: true });
  });

  it('answers the MCP analyze_contract tool with the same checks, holders, creator, simulation and flags (SDK client)', async () => {
    const rest = await analysisOf(fx.risk.blacklist);
    const baseUrl = await app.listen();
    const client = new Client({ name: 'analyzer-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/v1/mcp`), {
        requestInit: { headers: { 'X-Forwarded-For': `198.51.100.${++ipCounter}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'analyze_contract')!;
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      const result = await client.callTool({ name: 'analyze_contract', arguments: { contract_address: fx.risk.blacklist } });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const body = result.structuredContent as typeof rest;
      for (const field of ['checks', 'holders', 'creator', 'simulation', 'flags', 'safety_rating', 'risk_factors'])
        expect(body[field], field).toEqual(rest[field]);
      expect(body.checks.is_blacklisted).toBe(true);
      expect(flagCodes(body)).toContain('is_blacklisted');
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      const validate = ajv.compile(tool.outputSchema!);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('keeps a cold analysis bounded: holder logs paged (at most HOLDER_MAX_PAGES), calls and round trips counted', async () => {
    const recorder = await rpcRecorder(chain.rpcUrl);
    useChain(app.runtime, recorder.url, chain.deployment);
    try {
      await analysisOf(fx.risk.blacklist);
      const count = (name: string) => recorder.methods.filter((method) => method === name).length;
      expect(count('eth_getLogs')).toBeGreaterThanOrEqual(1);
      expect(count('eth_getLogs')).toBeLessThanOrEqual(HOLDER_MAX_PAGES + 1);
      expect(recorder.methods.length).toBeLessThanOrEqual(BOUND_CALLS);
      expect(recorder.requests).toBeLessThanOrEqual(BOUND_REQUESTS);
    } finally {
      useChain(app.runtime, chain.rpcUrl, chain.deployment);
      await recorder.close();
    }
  });
});

import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  hexToBigInt,
  parseAbi,
  zeroAddress,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { chain, rpcError, type ChainContext } from '../chain/client';
import { ApiError } from '../core/errors';
import { capabilitiesOf, pushedSelectors } from './selectors';
import { runChecks, type Checks } from './checks';
import { grade, type Findings, type Flag, type Grade } from './grade';
import { readHolders, type HolderReport } from './read-holders';
import { DEAD, findMainPool, readLiquidity } from './read-liquidity';
import { FRIEND_ADDRESS, simulateTrades, taxPercent, type Pool, type TradeResult } from './simulate-trades';
import { isNodeFailure, tryRead } from './try-read';

// One contract's safety analysis from the chain itself (issue 13): bytecode and standard views,
// EIP-1967 slots, Safe owners, simulated trades now and 1 and 7 days ahead, and who holds the
// liquidity; graded by the rubric in grade.ts (docs/analyzer.md).

/** EIP-1967 storage slots: implementation, admin, beacon. */
const SLOTS = {
  implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
} as const;

/** The simulated times of the delayed-honeypot recheck, in days from the latest block. */
export const RECHECK_DAYS = [1, 7] as const;

const viewsAbi = parseAbi([
  'function owner() view returns (address)',
  'function getOwner() view returns (address)',
  'function admin() view returns (address)',
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function implementation() view returns (address)',
  'function mint(address, uint256)',
  'function buyback(address, uint256)',
]);

export interface Analysis {
  contract_address: Address;
  chain_id: number;
  safety_rating: Grade['rating'];
  risk_level: Grade['riskLevel'];
  is_honeypot: boolean;
  fees: { buy_fee_percent: number; sell_fee_percent: number; transfer_fee_percent: number };
  ownership: { is_renounced: boolean; is_multisig: boolean; owner_address: string };
  liquidity: { is_locked: boolean; lock_duration_days: number };
  buyback: { has_buyback: boolean };
  checks: Checks;
  holders: HolderReport['holders'];
  creator: HolderReport['creator'];
  owner_balance_percent: number | null;
  simulation: {
    buy_tax: number | null;
    sell_tax: number | null;
    transfer_tax: number | null;
    buy_gas: number | null;
    sell_gas: number | null;
    max_sell_percent: number | null;
  };
  flags: Flag[];
  risk_factors: string[];
  summary: string;
  analyzed_at: string;
}

/** The analysis plus what the example-skill variant reports (risk score and capability flags). */
export interface AnalysisResult {
  analysis: Analysis;
  score: number;
  findings: Findings;
  block: bigint;
}

const slotAddress = (value: Hex | undefined): Address | null => {
  if (!value || hexToBigInt(value) === 0n) return null;
  return getAddress(`0x${value.slice(-40)}`);
};
const isBurnAddress = (address: Address | null) => address === null || address === zeroAddress || address === DEAD;

async function readOwnership(client: PublicClient, token: Address, proxyAdmin: Address | null) {
  const [owner, getOwner, admin] = await Promise.all(
    (['owner', 'getOwner', 'admin'] as const).map((functionName) =>
      tryRead(() => client.readContract({ address: token, abi: viewsAbi, functionName })),
    ),
  );
  const address = owner ?? getOwner ?? proxyAdmin ?? admin ?? null;
  const renounced = isBurnAddress(address) && isBurnAddress(proxyAdmin);
  let safe: Findings['owner']['safe'] = null;
  if (address && !renounced) {
    const code = await client.getCode({ address });
    if (code && code !== '0x') {
      const [owners, threshold] = await Promise.all([
        tryRead(() => client.readContract({ address, abi: viewsAbi, functionName: 'getOwners' })),
        tryRead(() => client.readContract({ address, abi: viewsAbi, functionName: 'getThreshold' })),
      ]);
      if (owners && threshold !== null && threshold > 0n) safe = { threshold: Number(threshold), owners: owners.length };
    }
  }
  return { address, renounced, safe };
}

function tradeFindings(trades: (TradeResult | null)[]) {
  const [now] = trades;
  const sellFailsAt: number[] = [];
  trades.forEach((trade, index) => {
    if (!trade || !trade.buyOk || trade.bought === 0n) return;
    const failed = !trade.approveOk || !trade.sellOk || trade.ethOut === 0n || (trade.sent > 0n && !trade.transferOk);
    const sellTax = taxPercent(trade.sold, trade.poolTokensIn);
    if (failed || (sellTax !== null && sellTax >= 90)) sellFailsAt.push(index === 0 ? 0 : RECHECK_DAYS[index - 1]!);
  });
  const nowSellTax = now?.sellOk ? taxPercent(now.sold, now.poolTokensIn) : null;
  const sellFailure = !now
    ? null
    : !now.approveOk
      ? 'approve fails'
      : now.sent > 0n && !now.transferOk
        ? 'transfers fail'
        : (now.sellError ??
          (now.sellOk && now.ethOut === 0n
            ? 'the sale pays nothing'
            : nowSellTax !== null && nowSellTax >= 90
              ? `the sell tax is ${nowSellTax}%`
              : null));
  return {
    sellFailsAt,
    sellFailure,
    buyFailure: !now
      ? null
      : !now.buyOk
        ? (now.buyError ?? 'reverted')
        : now.bought === 0n
          ? 'the buy delivered no tokens'
          : null,
    fees: {
      buy: now?.buyOk ? taxPercent(now.poolTokensOut, now.bought) : null,
      sell: now?.sellOk ? taxPercent(now.sold, now.poolTokensIn) : null,
      transfer: now?.transferOk ? taxPercent(now.sent, now.received) : null,
    },
  };
}

/**
 * Whether the owner can really call `signature` (an eth_call from the owner, nothing sent): minting
 * 1 wei to a fresh account, or a buyback taking 1 wei from the pool.
 */
async function ownerCanCall(
  client: PublicClient,
  token: Address,
  owner: Address | null,
  found: string[],
  signature: 'mint(address,uint256)' | 'buyback(address,uint256)',
  target: Address,
): Promise<boolean> {
  if (!found.includes(signature) || !owner || isBurnAddress(owner)) return false;
  const functionName = signature.startsWith('mint') ? 'mint' : 'buyback';
  const done = await tryRead(() =>
    client.call({ account: owner, to: token, data: encodeFunctionData({ abi: viewsAbi, functionName, args: [target, 1n] }) }),
  );
  return done !== null;
}

/**
 * The trade simulation; when the buy fails, once more with 1% of the size (a max-transaction limit
 * below 0.5% of the pool's depth is not a failed buy).
 */
async function tradeWithRetry(
  client: PublicClient,
  chainKey: string,
  input: Parameters<typeof simulateTrades>[2],
): Promise<TradeResult> {
  const first = await simulateTrades(client, chainKey, input);
  if (first.buyOk && first.bought > 0n) return first;
  const smaller = first.ethIn / 100n;
  if (smaller < 10n ** 9n) return first;
  const second = await simulateTrades(client, chainKey, { ...input, ethIn: smaller });
  return second.buyOk && second.bought > 0n ? second : first;
}

async function runAnalysis(
  context: ChainContext,
  token: Address,
  block: { number: bigint; timestamp: bigint },
): Promise<AnalysisResult> {
  const { client, addresses } = context;
  const chainKey = `${context.chainId}:${context.rpcUrl}`;
  const [code, implementationSlot, adminSlot, beaconSlot] = await Promise.all([
    client.getCode({ address: token, blockNumber: block.number }),
    client.getStorageAt({ address: token, slot: SLOTS.implementation }),
    client.getStorageAt({ address: token, slot: SLOTS.admin }),
    client.getStorageAt({ address: token, slot: SLOTS.beacon }),
  ]);
  if (!code || code === '0x') {
    throw new ApiError('not_a_contract', `There is no contract at ${token} on chain ${context.chainId}`, {
      contract_address: token,
      chain_id: context.chainId,
      reason: 'no_code',
    });
  }
  const proxy = {
    implementation: slotAddress(implementationSlot),
    admin: slotAddress(adminSlot),
    beacon: slotAddress(beaconSlot),
  };
  let beaconImplementation: Address | null = null;
  if (proxy.beacon) {
    beaconImplementation = await tryRead(() =>
      client.readContract({ address: proxy.beacon!, abi: viewsAbi, functionName: 'implementation' }),
    );
  }
  const logic = proxy.implementation ?? beaconImplementation;
  const [logicCode, symbol, owner, pool] = await Promise.all([
    logic ? client.getCode({ address: logic }) : Promise.resolve(undefined),
    tryRead(() => client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' })),
    readOwnership(client, token, proxy.admin),
    findMainPool(client, token, addresses),
  ]);
  const capabilities = capabilitiesOf(logicCode && logicCode !== '0x' ? [code, logicCode] : [code]);
  const mint = capabilities.get('mint') ?? [];

  const times: (bigint | undefined)[] = [undefined, ...RECHECK_DAYS.map((days) => block.timestamp + BigInt(days) * 86_400n)];
  const buyback = capabilities.get('buyback') ?? [];
  const liveOwner = owner.address && !owner.renounced && !isBurnAddress(owner.address) ? owner.address : null;
  const [trades, liquidity, minting, buybackWorks, holderReport] = await Promise.all([
    pool
      ? Promise.all(
          times.map((timestamp) =>
            tradeWithRetry(client, chainKey, { token, weth: addresses.weth, pool, timestamp }).catch((error: unknown) => {
              // A node without block overrides still gets today's answer; the recheck is reported missing.
              if (timestamp === undefined) throw error;
              return null;
            }),
          ),
        )
      : Promise.resolve([] as (TradeResult | null)[]),
    pool ? readLiquidity(client, pool, addresses.liquidityLockers, block.timestamp) : Promise.resolve(null),
    ownerCanCall(client, token, owner.address, mint, 'mint(address,uint256)', FRIEND_ADDRESS),
    pool ? ownerCanCall(client, token, owner.address, buyback, 'buyback(address,uint256)', pool.address) : Promise.resolve(false),
    readHolders(client, {
      token,
      latest: block.number,
      pool: pool?.address ?? null,
      lockers: addresses.liquidityLockers,
      owner: liveOwner,
    }),
  ]);
  const codes = logicCode && logicCode !== '0x' ? [code, logicCode] : [code];
  const now = trades[0] ?? null;
  const isProxy = Boolean(proxy.implementation ?? proxy.beacon) || (capabilities.get('upgrade') ?? []).length > 0;
  const checkReport = await runChecks({
    client,
    chainKey,
    token,
    weth: addresses.weth,
    pool,
    base: now,
    ethIn: now?.ethIn,
    owner: liveOwner,
    creator: holderReport.creator.address,
    selectors: new Set(codes.flatMap((one) => [...pushedSelectors(one)])),
    codes,
    isProxy,
    mintable: mint.length > 0 && (!owner.renounced || minting),
    supply: holderReport.supply,
    infrastructure: [
      addresses.weth,
      addresses.uniswapV2Factory,
      addresses.uniswapV2Router,
      addresses.uniswapV3Factory,
      ...addresses.swapRouterAllowlist,
    ],
  });

  const findings: Findings = {
    symbol,
    ...tradeFindings(trades),
    noPool: pool === null,
    recheckUnavailable: pool !== null && trades.slice(1).some((trade) => trade === null),
    owner,
    capabilities: {
      mint,
      mintConfirmed: minting,
      pause: capabilities.get('pause') ?? [],
      blacklist: capabilities.get('blacklist') ?? [],
      feeSetter: capabilities.get('fee_setter') ?? [],
      buyback,
      buybackConfirmed: buybackWorks,
      upgrade: capabilities.get('upgrade') ?? [],
    },
    proxy,
    liquidity: {
      pool: pool?.address ?? null,
      burnedShare: liquidity?.burnedShare ?? 0,
      lockedShare: liquidity?.lockedShare ?? 0,
      unlockInDays: liquidity?.unlockInDays ?? null,
      v3: pool?.version === 3,
    },
    checks: checkReport.checks,
    evidence: checkReport.evidence,
    topHolders: holderReport.holders.top_holders,
  };
  const result = grade(findings);
  return {
    findings,
    score: result.score,
    block: block.number,
    analysis: {
      contract_address: token,
      chain_id: context.chainId,
      safety_rating: result.rating,
      risk_level: result.riskLevel,
      is_honeypot: result.isHoneypot,
      fees: {
        buy_fee_percent: findings.fees.buy ?? 0,
        sell_fee_percent: findings.fees.sell ?? 0,
        transfer_fee_percent: findings.fees.transfer ?? 0,
      },
      ownership: { is_renounced: owner.renounced, is_multisig: result.isMultisig, owner_address: owner.address ?? zeroAddress },
      liquidity: { is_locked: result.isLocked, lock_duration_days: result.lockDays },
      buyback: { has_buyback: findings.capabilities.buyback.length > 0 },
      checks: checkReport.checks,
      holders: holderReport.holders,
      creator: holderReport.creator,
      owner_balance_percent: holderReport.owner_balance_percent,
      simulation: {
        buy_tax: findings.fees.buy,
        sell_tax: findings.fees.sell,
        transfer_tax: findings.fees.transfer,
        buy_gas: now?.buyOk ? Number(now.buyGas) : null,
        sell_gas: now?.sellOk ? Number(now.sellGas) : null,
        max_sell_percent: now?.buyOk && now.bought > 0n && now.approveOk ? Number(now.maxSellBps) / 100 : null,
      },
      flags: result.flags,
      risk_factors: result.factors,
      summary: result.summary,
      analyzed_at: new Date().toISOString(),
    },
  };
}

/** Maps any failure below to the API's: ApiErrors as they are, node failures 502, the rest 502 too (never a made-up value). */
function asApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (isNodeFailure(error) || error instanceof Error) return rpcError(error);
  return error;
}

/** Analyzes the contract at `token` on the runtime's chain at the latest block. */
export async function analyzeContract(
  token: Address,
  options: { context?: ChainContext; block?: { number: bigint; timestamp: bigint } } = {},
): Promise<AnalysisResult> {
  const context = options.context ?? (await chain());
  try {
    const block = options.block ?? (await latestBlock(context.client));
    return await runAnalysis(context, token, block);
  } catch (error) {
    throw asApiError(error);
  }
}

export async function latestBlock(client: PublicClient): Promise<{ number: bigint; timestamp: bigint }> {
  try {
    const block = await client.getBlock({ blockTag: 'latest' });
    return { number: block.number, timestamp: block.timestamp };
  } catch (error) {
    throw rpcError(error);
  }
}

export type { Pool };

import {
  encodeFunctionData,
  getAddress,
  parseEther,
  parseEventLogs,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { artifact } from '../artifacts';
import type { DevnetCoreAddresses } from '../addresses';
import { addV2Liquidity, addV3Liquidity, deployerFor } from './deployer';

// Deploys the devnet's fixtures (ARCHITECTURE.md, Chain) with anvil's first dev account. Every
// step is deterministic, so the same deployer on a fresh chain always gets the same addresses.

/** anvil's default dev accounts (mnemonic "test test ... junk"); public knowledge, devnet only. */
export const ANVIL_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
];
export const DEPLOYER_KEY = ANVIL_KEYS[0]!;
/** The devnet treasury is anvil's second account (so a developer can move what arrives). */
export const TREASURY_KEY = ANVIL_KEYS[1]!;

export const PLATFORM_TOKEN_DECIMALS = 18;
const TOKEN = 10n ** 18n;
const DEAD = getAddress('0x000000000000000000000000000000000000dEaD');

export interface SampleToken {
  address: Address;
  symbol: string;
  kind: 'clean' | 'honeypot' | 'fee_on_transfer' | 'mintable' | 'proxy' | 'locked_lp' | 'buyback';
  /** Its Uniswap V2 pair with WETH, when it has one. */
  pair: Address | null;
  description: string;
}

/** The analyzer's risk-pattern tokens (contracts/fixtures/RiskTokens.sol), each with a V2 pool. */
export interface RiskToken {
  address: Address;
  symbol: string;
  kind:
    | 'blacklist'
    | 'whitelist'
    | 'anti_whale'
    | 'cooldown'
    | 'pausable'
    | 'hidden_owner'
    | 'recoverable_owner'
    | 'balance_setter'
    | 'selfdestruct'
    | 'external_call'
    | 'sell_limit'
    | 'concentrated';
  pair: Address;
  /** The privileged or notable account of the pattern: the hidden operator, the fee receiver, the 90% holder. */
  account: Address | null;
  description: string;
}

export interface DevnetDeployment extends DevnetCoreAddresses {
  chainId: number;
  deployer: Address;
  uniswapV3PositionManager: Address;
  platformTokenV3Pool: Address;
  platformTokenV2Pair: Address;
  safeSingleton: Address;
  safeProxyFactory: Address;
  safeFallbackHandler: Address;
  /** A 1-of-1 Safe owned by the deployer. */
  safe: Address;
  ownerWalletFactory: Address;
  sampleTokens: SampleToken[];
  /** Not tradeable samples (not in the trade token list): fixtures for the analyzer's checks. */
  riskTokens: RiskToken[];
  /** x402 (docs/payments.md): the USDC-like EIP-3009 token payments settle in; absent in deployments made before it. */
  usdc?: Address;
  /** ERC-8004 registries (contracts/erc8004, docs/erc8004.md). */
  erc8004: { identityRegistry: Address; reputationRegistry: Address; validationRegistry: Address };
  deployedAt: string;
}

export async function deployFixtures(client: PublicClient, rpcUrl: string): Promise<DevnetDeployment> {
  const treasury = privateKeyToAccount(TREASURY_KEY).address;
  const d = deployerFor(client, rpcUrl, await client.getChainId(), DEPLOYER_KEY);
  const { account, deploy, call, read } = d;

  // Core: the platform token (1 billion, 18 decimals), WETH, Uniswap V2 and V3, the quoter and router.
  const platformToken = await deploy('PlatformToken', ['Vouchsafe', 'VOUCH', 1_000_000_000n * TOKEN]);
  const weth = await deploy('WETH9');
  const uniswapV2Factory = await deploy('UniswapV2Factory', [account.address]);
  const uniswapV2Router = await deploy('UniswapV2Router02', [uniswapV2Factory, weth]);
  const uniswapV3Factory = await deploy('UniswapV3Factory');
  const positionManager = await deploy('NonfungiblePositionManager', [
    uniswapV3Factory,
    weth,
    '0x0000000000000000000000000000000000000000',
  ]);
  const uniswapV3Quoter = await deploy('QuoterV2', [uniswapV3Factory, weth]);
  const swapRouter02 = await deploy('SwapRouter02', [uniswapV2Factory, uniswapV3Factory, positionManager, weth]);
  const liquidityLocker = await deploy('LiquidityLocker');
  const ownerWalletFactory = await deploy('OwnerWalletFactory');

  const dex = { weth, uniswapV2Factory, uniswapV2Router, uniswapV3Factory, uniswapV3PositionManager: positionManager };
  // A V2 pair with WETH for a token; the LP tokens go to `lpTo` (or stay with the deployer).
  const pairFor = (token: Address, tokenAmount: bigint, ethAmount: bigint, lpTo: Address = account.address) =>
    addV2Liquidity(d, dex, token, { tokens: tokenAmount, eth: ethAmount }, lpTo);

  // Platform token pools: V2 (100M tokens : 100 ETH) and V3 full range at fee 0.3%.
  const platformTokenV2Pair = await pairFor(platformToken, 100_000_000n * TOKEN, parseEther('100'));
  const { pool: platformTokenV3Pool } = await addV3Liquidity(d, dex, platformToken, {
    tokens: 100_000_000n * TOKEN,
    eth: parseEther('100'),
  });

  // A Safe 1.4.1 (1 of 1, the deployer), created through the proxy factory as wallets do.
  const safeSingleton = await deploy('SafeL2');
  const safeProxyFactory = await deploy('SafeProxyFactory');
  const safeFallbackHandler = await deploy('CompatibilityFallbackHandler');
  const zero = '0x0000000000000000000000000000000000000000';
  const setup = encodeFunctionData({
    abi: artifact('SafeL2').abi,
    functionName: 'setup',
    args: [[account.address], 1n, zero, '0x', safeFallbackHandler, zero, 0n, zero],
  });
  const created = await call(safeProxyFactory, 'SafeProxyFactory', 'createProxyWithNonce', [safeSingleton, setup, 0n]);
  const [creation] = parseEventLogs({
    abi: artifact('SafeProxyFactory').abi as Abi,
    logs: created.logs,
    eventName: 'ProxyCreation',
  });
  const safe = getAddress((creation as unknown as { args: { proxy: Address } }).args.proxy);

  // Sample tokens for the analyzer, each with a V2 pool of 1M tokens : 1 ETH unless noted.
  const MILLION = 1_000_000n * TOKEN;
  const sampleTokens: SampleToken[] = [];
  const clean = await deploy('PlatformToken', ['Clean Token', 'CLEAN', 10n * MILLION]);
  await call(clean, 'PlatformToken', 'renounceOwnership');
  sampleTokens.push({
    address: clean,
    symbol: 'CLEAN',
    kind: 'clean',
    pair: await pairFor(clean, MILLION, parseEther('1'), DEAD),
    description: 'Ownership renounced, no mint, LP tokens and the rest of the supply burned to 0x…dEaD.',
  });

  const honeypot = await deploy('HoneypotToken', [10n * MILLION]);
  const honeypotPair = await pairFor(honeypot, MILLION, parseEther('1'));
  await call(honeypot, 'HoneypotToken', 'setPair', [honeypotPair]);
  sampleTokens.push({
    address: honeypot,
    symbol: 'HONEY',
    kind: 'honeypot',
    pair: honeypotPair,
    description: 'Buys succeed; sells to the pair revert ("trading paused") except for the owner.',
  });

  const fee = await deploy('FeeOnTransferToken', [10n * MILLION, 1000n]);
  sampleTokens.push({
    address: fee,
    symbol: 'FEE',
    kind: 'fee_on_transfer',
    pair: await pairFor(fee, MILLION, parseEther('1')),
    description: 'Every transfer between others sends 10% to the owner.',
  });

  const mintable = await deploy('PlatformToken', ['Mintable Token', 'MINT', 10n * MILLION]);
  sampleTokens.push({
    address: mintable,
    symbol: 'MINT',
    kind: 'mintable',
    pair: await pairFor(mintable, MILLION, parseEther('1')),
    description: 'The owner (not renounced) can mint without limit.',
  });

  const logic = await deploy('UpgradeableTokenLogic');
  const init = encodeFunctionData({
    abi: artifact('UpgradeableTokenLogic').abi,
    functionName: 'initialize',
    args: [account.address, 10n * MILLION],
  });
  const proxy = await deploy('SampleProxy', [logic, init]);
  sampleTokens.push({
    address: proxy,
    symbol: 'PRXY',
    kind: 'proxy',
    pair: await pairFor(proxy, MILLION, parseEther('1')),
    description: 'An ERC-1967 proxy: the implementation can be replaced.',
  });

  const locked = await deploy('PlatformToken', ['Locked Token', 'LOCK', 10n * MILLION]);
  const lockedPair = await pairFor(locked, MILLION, parseEther('1'));
  const lpBalance = await read<bigint>(lockedPair, 'UniswapV2Pair', 'balanceOf', [account.address]);
  await call(lockedPair, 'UniswapV2Pair', 'approve', [liquidityLocker, lpBalance]);
  const unlockAt = BigInt(Math.floor(Date.now() / 1000) + 365 * 24 * 3600);
  await call(liquidityLocker, 'LiquidityLocker', 'lock', [lockedPair, lpBalance, unlockAt]);
  sampleTokens.push({
    address: locked,
    symbol: 'LOCK',
    kind: 'locked_lp',
    pair: lockedPair,
    description: 'All LP tokens locked in the devnet LiquidityLocker for a year.',
  });

  const buyback = await deploy('BuybackToken', [10n * MILLION]);
  sampleTokens.push({
    address: buyback,
    symbol: 'BUYB',
    kind: 'buyback',
    pair: await pairFor(buyback, MILLION, parseEther('1')),
    description: 'The owner can take tokens from any holder, the pair included (buyback()).',
  });

  // The clean token's deployer keeps nothing: no holder other than the pair and 0x…dEaD (the
  // analyzer's holder_concentration). Last, so no deployment address moves.
  await call(clean, 'PlatformToken', 'transfer', [DEAD, 9n * MILLION]);

  // The analyzer's risk patterns (issue 25), after everything else so no earlier address moves. Each
  // has a 1M : 1 ETH V2 pool with its LP burned, and its deployer's remaining 9M burned, so only the
  // pattern itself counts; the concentrated token instead gives 9M (90%) to one wallet.
  const riskTokens: RiskToken[] = [];
  const operator = privateKeyToAccount(ANVIL_KEYS[7]!).address;
  const whale = privateKeyToAccount(ANVIL_KEYS[6]!).address;
  const feeReceiver = await deploy('FeeReceiver');
  const risky: [RiskToken['kind'], string, string, unknown[], Address | null, string][] = [
    ['blacklist', 'BlacklistToken', 'BLK', [], null, 'The owner can block any address (blacklist(address,bool)).'],
    ['whitelist', 'WhitelistToken', 'WLT', [], null, 'Only addresses the owner lists may buy or sell.'],
    ['anti_whale', 'AntiWhaleToken', 'WHALE', [], null, 'Max transaction 1% and max wallet 2%, both with owner setters.'],
    ['cooldown', 'CooldownToken', 'COOL', [], null, 'A seller must wait 60 s between sells.'],
    ['pausable', 'PausableToken', 'PAUSE', [], null, 'The owner can pause every transfer.'],
    [
      'hidden_owner',
      'HiddenOwnerToken',
      'HIDE',
      [operator],
      operator,
      'Renounced, but a second role can still set the sell fee.',
    ],
    [
      'recoverable_owner',
      'RecoverableOwnerToken',
      'RECO',
      [],
      account.address,
      'Renounced, but the previous owner can recover ownership.',
    ],
    ['balance_setter', 'BalanceSetterToken', 'BSET', [], null, "The owner can set any holder's balance."],
    ['selfdestruct', 'SelfdestructToken', 'KILL', [], null, 'The owner can self-destruct the contract.'],
    [
      'external_call',
      'ExternalCallToken',
      'XCALL',
      [feeReceiver],
      feeReceiver,
      'Every transfer calls a fee receiver the owner can replace.',
    ],
    ['sell_limit', 'SellLimitToken', 'SLIM', [], null, 'A holder may sell at most 10% of its balance per transaction.'],
  ];
  for (const [kind, name, symbol, args, notable, description] of risky) {
    const address = await deploy(name, [10n * MILLION, ...args]);
    const pair = await pairFor(address, MILLION, parseEther('1'), DEAD);
    await call(address, name, 'setPair', [pair]);
    await call(address, name, 'transfer', [DEAD, 9n * MILLION]);
    if (kind === 'hidden_owner' || kind === 'recoverable_owner') await call(address, name, 'renounceOwnership');
    riskTokens.push({ address, symbol, kind, pair, account: notable, description });
  }
  const concentrated = await deploy('PlatformToken', ['Whale Token', 'WHALE90', 10n * MILLION]);
  const concentratedPair = await pairFor(concentrated, MILLION, parseEther('1'), DEAD);
  await call(concentrated, 'PlatformToken', 'transfer', [whale, 9n * MILLION]);
  await call(concentrated, 'PlatformToken', 'renounceOwnership');
  riskTokens.push({
    address: concentrated,
    symbol: 'WHALE90',
    kind: 'concentrated',
    pair: concentratedPair,
    account: whale,
    description: 'Renounced plain token; one wallet holds 90% of the supply.',
  });

  // x402 payments (issue 26): the devnet's USDC, deployed last so that no earlier address moves.
  const usdc = await deployDevUsdc(client, rpcUrl);
  // ERC-8004 registries (issue 24), after everything else so no earlier address moves.
  const identityRegistry = await deploy('IdentityRegistry');
  const erc8004 = {
    identityRegistry,
    reputationRegistry: await deploy('ReputationRegistry', [identityRegistry]),
    validationRegistry: await deploy('ValidationRegistry', [identityRegistry]),
  };

  return {
    chainId: await client.getChainId(),
    deployer: account.address,
    platformToken,
    treasury,
    weth,
    uniswapV2Factory,
    uniswapV2Router,
    uniswapV3Factory,
    uniswapV3Quoter,
    swapRouter02,
    liquidityLocker,
    uniswapV3PositionManager: positionManager,
    platformTokenV3Pool,
    platformTokenV2Pair,
    safeSingleton,
    safeProxyFactory,
    safeFallbackHandler,
    safe,
    ownerWalletFactory,
    sampleTokens,
    riskTokens,
    usdc,
    erc8004,
    deployedAt: new Date().toISOString(),
  };
}

// ---- x402 (issue 26): the devnet's USDC ----

/** USDC has 6 decimals; the devnet's stand-in too. */
export const USDC_DECIMALS = 6;
/** What every dev account (anvil's accounts 2-9) holds after deployment: 10,000 USDC. */
export const DEV_ACCOUNT_USDC = 10_000n * 10n ** 6n;

/**
 * Deploys DevUSDC (contracts/DevUSDC.sol: USDC's EIP-712 domain and EIP-3009) owned by the deployer and
 * mints 10,000 to each dev account other than the deployer and the treasury. Also run on its own when a
 * saved devnet predates it (start-devnet.ts).
 */
export async function deployDevUsdc(client: PublicClient, rpcUrl: string): Promise<Address> {
  const d = deployerFor(client, rpcUrl, await client.getChainId(), DEPLOYER_KEY);
  const usdc = await d.deploy('DevUSDC');
  for (const key of ANVIL_KEYS.slice(2)) {
    await d.call(usdc, 'DevUSDC', 'mint', [privateKeyToAccount(key).address, DEV_ACCOUNT_USDC]);
  }
  return usdc;
}

import {
  encodeFunctionData,
  getAddress,
  parseEther,
  parseEventLogs,
  zeroAddress,
  type Abi,
  type Address,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { artifact } from '../server/chain/artifacts';
import { ANVIL_KEYS, DEPLOYER_KEY, type DevnetDeployment } from '../server/chain/devnet/deploy';
import { addV2Liquidity, addV3Liquidity, deployerFor } from '../server/chain/devnet/deployer';

// The contract analyzer's extra fixtures (contracts/AnalyzerFixtures.sol), deployed on a test chain
// next to the devnet's sample tokens (with the same helpers, server/chain/devnet/deployer.ts): taxes
// that differ by direction, a delayed honeypot, a token owned by a 2-of-3 Safe, liquidity locked in
// lockers with the UNCX V2, PinkLock V2 and Team Finance read interfaces, and tokens whose only pool
// is on Uniswap V3 (position held by the deployer, sent to 0x…dEaD, or locked in an UNCX-V3-style
// locker). Pools are 1M tokens : 1 ETH. Used by test/analyzer.int.test.ts and bench/analyzer.ts.

const TOKEN = 10n ** 18n;
const MILLION = 1_000_000n * TOKEN;
const DAY = 86_400;
const DEAD = getAddress('0x000000000000000000000000000000000000dEaD');

export interface LockedFixture {
  token: Address;
  locker: Address;
  /** Whole days left on the lock when deployed. */
  days: number;
}

export interface AnalyzerFixtures {
  /** Buy 3%, sell 7%, transfer 1%. */
  tax: Address;
  taxRates: { buy: number; sell: number; transfer: number };
  /** Sells close 3 days after deployment. */
  delayedHoneypot: Address;
  delayDays: number;
  safeOwned: Address;
  safe: Address;
  safeOwners: Address[];
  uncxLocked: Address;
  uncxLocker: Address;
  /** Whole days left on the UNCX-style lock when deployed. */
  uncxLockDays: number;
  /** Every LP token locked in a PinkLock-V2-style locker (60 days). */
  pinkLocked: LockedFixture;
  /** Every LP token locked in a Team-Finance-style locker (45 days). */
  teamFinanceLocked: LockedFixture;
  /** Only a Uniswap V3 pool (fee 0.3%, full range, 1M : 1 ETH): a plain token and a honeypot. */
  v3Only: Address;
  v3Honeypot: Address;
  /** V3 only, the position NFT sent to 0x…dEaD. */
  v3Burned: Address;
  /** V3 only, the position NFT locked in an UNCX-V3-style locker (120 days). */
  v3Locked: LockedFixture;
  /** Every locker above (for LIQUIDITY_LOCKERS). */
  lockers: Address[];
  /** One token per risky owner power (contracts/fixtures/RiskTokens.sol), deployed with the devnet (riskTokens). */
  risk: RiskFixtures;
  /** The devnet's own sample tokens by kind (clean, honeypot, fee_on_transfer, ...). */
  sample: Record<DevnetDeployment['sampleTokens'][number]['kind'], Address>;
}

export interface RiskFixtures {
  blacklist: Address;
  whitelist: Address;
  antiWhale: Address;
  cooldown: Address;
  pausable: Address;
  /** Renounced; `hiddenOperator` can still change the sell fee. */
  hiddenOwner: Address;
  hiddenOperator: Address;
  /** Renounced; the deployer can call recoverOwnership(). */
  recoverable: Address;
  balanceSetter: Address;
  selfdestruct: Address;
  /** Transfers call `feeReceiver`, which the owner can replace. */
  externalCall: Address;
  feeReceiver: Address;
  /** At most 10% of a balance per sale. */
  sellLimit: Address;
  /** Owner-only blocking and balance setting behind names no list knows (deployed here, not on the devnet). */
  obscure: Address;
  /** Renounced; `keeper` (anvil account 5) can burn any holder's tokens through an unknown function (deployed here). */
  obscureKeeper: Address;
  keeper: Address;
  /** An AntiWhaleToken whose max transaction (1,000 tokens) is below the analyzer's default buy (deployed here). */
  tightAntiWhale: Address;
  /** Trading behind an owner-only `f(bool)` switch no list knows (deployed here). */
  obscureSwitch: Address;
  /** Renounced plain token; `whale` holds 90% of the supply. */
  concentrated: Address;
  whale: Address;
}

export async function deployAnalyzerFixtures(
  client: PublicClient,
  rpcUrl: string,
  deployment: DevnetDeployment,
): Promise<AnalyzerFixtures> {
  const d = deployerFor(client, rpcUrl, 8453, DEPLOYER_KEY);
  const { account, deploy, call, read } = d;
  const pairFor = (token: Address, lpTo: Address = account.address) =>
    addV2Liquidity(d, deployment, token, { tokens: MILLION, eth: parseEther('1') }, lpTo);
  const v3PoolFor = (token: Address, recipient: Address = account.address) =>
    addV3Liquidity(d, deployment, token, { tokens: MILLION, eth: parseEther('1') }, recipient);
  const unlockIn = async (days: number) => (await client.getBlock()).timestamp + BigInt(days * DAY + 3600);
  /** A renounced token whose V2 LP tokens (all of the deployer's) go into `lockLp`. */
  const lockedToken = async (symbol: string, lockLp: (pair: Address, amount: bigint) => Promise<unknown>) => {
    const token = await deploy('PlatformToken', [`${symbol} Locked`, symbol, 10n * MILLION]);
    const pair = await pairFor(token);
    await call(token, 'PlatformToken', 'renounceOwnership');
    const lpBalance = await read<bigint>(pair, 'UniswapV2Pair', 'balanceOf', [account.address]);
    await lockLp(pair, lpBalance);
    return token;
  };

  const taxRates = { buy: 3, sell: 7, transfer: 1 };
  const tax = await deploy('TaxToken', [10n * MILLION, 300n, 700n, 100n]);
  await call(tax, 'TaxToken', 'setPair', [await pairFor(tax)]);

  const delayDays = 3;
  const delayedHoneypot = await deploy('DelayedHoneypotToken', [10n * MILLION, BigInt(delayDays * DAY)]);
  await call(delayedHoneypot, 'DelayedHoneypotToken', 'setPair', [await pairFor(delayedHoneypot)]);

  // A 2-of-3 Safe (deployer and anvil accounts 8 and 9) owns this token.
  const safeOwners = [account.address, privateKeyToAccount(ANVIL_KEYS[8]!).address, privateKeyToAccount(ANVIL_KEYS[9]!).address];
  const setup = encodeFunctionData({
    abi: artifact('SafeL2').abi,
    functionName: 'setup',
    args: [safeOwners, 2n, zeroAddress, '0x', deployment.safeFallbackHandler, zeroAddress, 0n, zeroAddress],
  });
  const created = await call(deployment.safeProxyFactory, 'SafeProxyFactory', 'createProxyWithNonce', [
    deployment.safeSingleton,
    setup,
    7n,
  ]);
  const [creation] = parseEventLogs({
    abi: artifact('SafeProxyFactory').abi as Abi,
    logs: created.logs,
    eventName: 'ProxyCreation',
  });
  const safe = getAddress((creation as unknown as { args: { proxy: Address } }).args.proxy);
  const safeOwned = await deploy('PlatformToken', ['Safe Token', 'SAFE', 10n * MILLION]);
  await pairFor(safeOwned, DEAD);
  await call(safeOwned, 'PlatformToken', 'transferOwnership', [safe]);

  // Ownership renounced; every LP token locked in a locker of each read interface.
  const uncxLocker = await deploy('UncxStyleLocker');
  const uncxLockDays = 90;
  const uncxLocked = await lockedToken('ULOCK', async (pair, amount) => {
    await call(pair, 'UniswapV2Pair', 'approve', [uncxLocker, amount]);
    await call(uncxLocker, 'UncxStyleLocker', 'lockLPToken', [pair, amount, await unlockIn(uncxLockDays)]);
  });
  const pinkLocker = await deploy('PinkLockStyleLocker');
  const pinkLocked = { locker: pinkLocker, days: 60 } as LockedFixture;
  pinkLocked.token = await lockedToken('PLOCK', async (pair, amount) => {
    await call(pair, 'UniswapV2Pair', 'approve', [pinkLocker, amount]);
    await call(pinkLocker, 'PinkLockStyleLocker', 'lock', [
      account.address,
      pair,
      true,
      amount,
      await unlockIn(pinkLocked.days),
      'LP lock',
    ]);
  });
  const teamLocker = await deploy('TeamFinanceStyleLocker');
  const teamFinanceLocked = { locker: teamLocker, days: 45 } as LockedFixture;
  teamFinanceLocked.token = await lockedToken('TLOCK', async (pair, amount) => {
    await call(pair, 'UniswapV2Pair', 'approve', [teamLocker, amount]);
    await call(teamLocker, 'TeamFinanceStyleLocker', 'lockToken', [
      pair,
      account.address,
      amount,
      await unlockIn(teamFinanceLocked.days),
    ]);
  });

  // V3-only pools, full range at fee 0.3%.
  const v3Only = await deploy('PlatformToken', ['V3 Token', 'VTHREE', 10n * MILLION]);
  await v3PoolFor(v3Only);
  await call(v3Only, 'PlatformToken', 'renounceOwnership');
  const v3Honeypot = await deploy('HoneypotToken', [10n * MILLION]);
  await call(v3Honeypot, 'HoneypotToken', 'setPair', [(await v3PoolFor(v3Honeypot)).pool]);
  const v3Burned = await deploy('PlatformToken', ['V3 Burned', 'VBURN', 10n * MILLION]);
  await v3PoolFor(v3Burned, DEAD);
  // The rest of its supply burned too: no holder but the pool and 0x…dEaD (holder_concentration).
  await call(v3Burned, 'PlatformToken', 'transfer', [
    DEAD,
    await read<bigint>(v3Burned, 'PlatformToken', 'balanceOf', [account.address]),
  ]);
  await call(v3Burned, 'PlatformToken', 'renounceOwnership');
  const v3Locker = await deploy('UncxV3StyleLocker');
  const v3Locked = { locker: v3Locker, days: 120 } as LockedFixture;
  v3Locked.token = await deploy('PlatformToken', ['V3 Locked', 'VLOCK', 10n * MILLION]);
  const position = await v3PoolFor(v3Locked.token);
  const manager = deployment.uniswapV3PositionManager;
  await call(manager, 'NonfungiblePositionManager', 'approve', [v3Locker, position.tokenId]);
  await call(v3Locker, 'UncxV3StyleLocker', 'lock', [manager, position.tokenId, position.pool, await unlockIn(v3Locked.days)]);
  await call(v3Locked.token, 'PlatformToken', 'renounceOwnership');

  // Risk patterns (issue 25): deployed with the devnet (server/chain/devnet/deploy.ts, riskTokens).
  const riskOf = (kind: DevnetDeployment['riskTokens'][number]['kind']) => {
    const found = deployment.riskTokens.find((token) => token.kind === kind);
    if (!found) throw new Error(`the devnet has no ${kind} risk token`);
    return found;
  };
  const risk: RiskFixtures = {
    blacklist: riskOf('blacklist').address,
    whitelist: riskOf('whitelist').address,
    antiWhale: riskOf('anti_whale').address,
    cooldown: riskOf('cooldown').address,
    pausable: riskOf('pausable').address,
    hiddenOwner: riskOf('hidden_owner').address,
    hiddenOperator: riskOf('hidden_owner').account!,
    recoverable: riskOf('recoverable_owner').address,
    balanceSetter: riskOf('balance_setter').address,
    selfdestruct: riskOf('selfdestruct').address,
    externalCall: riskOf('external_call').address,
    feeReceiver: riskOf('external_call').account!,
    sellLimit: riskOf('sell_limit').address,
    concentrated: riskOf('concentrated').address,
    whale: riskOf('concentrated').account!,
    obscure: await deploy('ObscureToken', [10n * MILLION]),
    obscureKeeper: await deploy('ObscureKeeperToken', [10n * MILLION, privateKeyToAccount(ANVIL_KEYS[5]!).address]),
    keeper: privateKeyToAccount(ANVIL_KEYS[5]!).address,
    tightAntiWhale: await deploy('AntiWhaleToken', [10n * MILLION]),
    obscureSwitch: await deploy('ObscureSwitchToken', [10n * MILLION]),
  };
  await call(risk.obscureSwitch, 'ObscureSwitchToken', 'setPair', [await pairFor(risk.obscureSwitch, DEAD)]);
  await call(risk.obscureSwitch, 'ObscureSwitchToken', 'transfer', [DEAD, 9n * MILLION]);
  await call(risk.tightAntiWhale, 'AntiWhaleToken', 'setPair', [await pairFor(risk.tightAntiWhale, DEAD)]);
  await call(risk.tightAntiWhale, 'AntiWhaleToken', 'transfer', [DEAD, 9n * MILLION]);
  await call(risk.tightAntiWhale, 'AntiWhaleToken', 'setMaxTxAmount', [1_000n * TOKEN]);
  await call(risk.obscureKeeper, 'ObscureKeeperToken', 'setPair', [await pairFor(risk.obscureKeeper, DEAD)]);
  await call(risk.obscureKeeper, 'ObscureKeeperToken', 'transfer', [DEAD, 9n * MILLION]);
  await call(risk.obscureKeeper, 'ObscureKeeperToken', 'renounceOwnership');
  await call(risk.obscure, 'ObscureToken', 'setPair', [await pairFor(risk.obscure, DEAD)]);
  await call(risk.obscure, 'ObscureToken', 'transfer', [DEAD, 9n * MILLION]);

  const sample = Object.fromEntries(
    deployment.sampleTokens.map((token) => [token.kind, token.address]),
  ) as AnalyzerFixtures['sample'];
  return {
    tax,
    taxRates,
    delayedHoneypot,
    delayDays,
    safeOwned,
    safe,
    safeOwners,
    uncxLocked,
    uncxLocker,
    uncxLockDays,
    pinkLocked,
    teamFinanceLocked,
    v3Only,
    v3Honeypot,
    v3Burned,
    v3Locked,
    risk,
    lockers: [uncxLocker, pinkLocker, teamLocker, v3Locker, deployment.liquidityLocker],
    sample,
  };
}

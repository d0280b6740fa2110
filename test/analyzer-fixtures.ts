import {
  encodeFunctionData,
  getAddress,
  parseEther,
  parseEventLogs,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { artifact } from '../server/chain/artifacts';
import { ANVIL_KEYS, DEPLOYER_KEY, type DevnetDeployment } from '../server/chain/devnet/deploy';
import { devnetChain } from '../server/chain/viem-chain';
import { createWalletClient, http } from 'viem';

// The contract analyzer's extra fixtures (contracts/AnalyzerFixtures.sol), deployed on a test chain
// next to the devnet's sample tokens: taxes that differ by direction, a delayed honeypot, a token
// owned by a 2-of-3 Safe, and liquidity locked in an UNCX-style locker. Each gets a V2 pair with WETH
// (1M tokens : 1 ETH). Used by test/analyzer.int.test.ts and bench/analyzer.ts.

const TOKEN = 10n ** 18n;
const MILLION = 1_000_000n * TOKEN;
const GAS = 12_000_000n;

function isqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + value / x) / 2n;
  }
  return x;
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
  /** Only a Uniswap V3 pool (fee 0.3%, full range, 1M : 1 ETH): a plain token and a honeypot. */
  v3Only: Address;
  v3Honeypot: Address;
  /** The devnet's own sample tokens by kind (clean, honeypot, fee_on_transfer, ...). */
  sample: Record<DevnetDeployment['sampleTokens'][number]['kind'], Address>;
}

export async function deployAnalyzerFixtures(
  client: PublicClient,
  rpcUrl: string,
  deployment: DevnetDeployment,
): Promise<AnalyzerFixtures> {
  const account = privateKeyToAccount(DEPLOYER_KEY);
  const wallet = createWalletClient({ account, chain: devnetChain(8453, rpcUrl), transport: http(rpcUrl) });
  const mined = async (hash: Hex) => {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`fixture transaction ${hash} reverted`);
    return receipt;
  };
  const deploy = async (name: string, args: unknown[] = []) => {
    const { abi, bytecode } = artifact(name);
    const receipt = await mined(await wallet.deployContract({ abi, bytecode, args, gas: GAS }));
    return getAddress(receipt.contractAddress!);
  };
  const call = async (to: Address, name: string, functionName: string, args: unknown[] = [], value = 0n) =>
    mined(await wallet.writeContract({ address: to, abi: artifact(name).abi, functionName, args, value, gas: GAS }));
  const read = <T>(to: Address, name: string, functionName: string, args: unknown[] = []) =>
    client.readContract({ address: to, abi: artifact(name).abi, functionName, args }) as Promise<T>;
  const pairFor = async (token: Address, lpTo: Address = account.address) => {
    await call(token, 'PlatformToken', 'approve', [deployment.uniswapV2Router, MILLION]);
    await call(
      deployment.uniswapV2Router,
      'UniswapV2Router02',
      'addLiquidityETH',
      [token, MILLION, 0n, 0n, lpTo, 2n ** 255n],
      parseEther('1'),
    );
    return getAddress(await read<Address>(deployment.uniswapV2Factory, 'UniswapV2Factory', 'getPair', [token, deployment.weth]));
  };

  const taxRates = { buy: 3, sell: 7, transfer: 1 };
  const tax = await deploy('TaxToken', [10n * MILLION, 300n, 700n, 100n]);
  await call(tax, 'TaxToken', 'setPair', [await pairFor(tax)]);

  const delayDays = 3;
  const delayedHoneypot = await deploy('DelayedHoneypotToken', [10n * MILLION, BigInt(delayDays * 86_400)]);
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
  await pairFor(safeOwned, '0x000000000000000000000000000000000000dEaD');
  await call(safeOwned, 'PlatformToken', 'transferOwnership', [safe]);

  // Ownership renounced; every LP token locked in the UNCX-style locker for 90 days.
  const uncxLocker = await deploy('UncxStyleLocker');
  const uncxLocked = await deploy('PlatformToken', ['Uncx Locked', 'ULOCK', 10n * MILLION]);
  const lockedPair = await pairFor(uncxLocked);
  await call(uncxLocked, 'PlatformToken', 'renounceOwnership');
  const lpBalance = await read<bigint>(lockedPair, 'UniswapV2Pair', 'balanceOf', [account.address]);
  await call(lockedPair, 'UniswapV2Pair', 'approve', [uncxLocker, lpBalance]);
  const uncxLockDays = 90;
  const { timestamp } = await client.getBlock();
  await call(uncxLocker, 'UncxStyleLocker', 'lockLPToken', [
    lockedPair,
    lpBalance,
    timestamp + BigInt(uncxLockDays * 86_400 + 3600),
  ]);

  // V3-only pools, full range at fee 0.3%, liquidity from the deployer.
  const v3PoolFor = async (token: Address) => {
    const weth = deployment.weth;
    await call(weth, 'WETH9', 'deposit', [], parseEther('1'));
    const [token0, token1] = token.toLowerCase() < weth.toLowerCase() ? [token, weth] : [weth, token];
    const [amount0, amount1] = token0 === token ? [MILLION, parseEther('1')] : [parseEther('1'), MILLION];
    const manager = deployment.uniswapV3PositionManager;
    await call(manager, 'NonfungiblePositionManager', 'createAndInitializePoolIfNecessary', [
      token0,
      token1,
      3000,
      isqrt((amount1 << 192n) / amount0),
    ]);
    await call(token, 'PlatformToken', 'approve', [manager, MILLION]);
    await call(weth, 'WETH9', 'approve', [manager, parseEther('1')]);
    await call(manager, 'NonfungiblePositionManager', 'mint', [
      {
        token0,
        token1,
        fee: 3000,
        tickLower: -887220,
        tickUpper: 887220,
        amount0Desired: amount0,
        amount1Desired: amount1,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: account.address,
        deadline: 2n ** 255n,
      },
    ]);
    return getAddress(await read<Address>(deployment.uniswapV3Factory, 'UniswapV3Factory', 'getPool', [token, weth, 3000]));
  };
  const v3Only = await deploy('PlatformToken', ['V3 Token', 'VTHREE', 10n * MILLION]);
  await v3PoolFor(v3Only);
  await call(v3Only, 'PlatformToken', 'renounceOwnership');
  const v3Honeypot = await deploy('HoneypotToken', [10n * MILLION]);
  await call(v3Honeypot, 'HoneypotToken', 'setPair', [await v3PoolFor(v3Honeypot)]);

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
    v3Only,
    v3Honeypot,
    sample,
  };
}

import {
  createWalletClient,
  getAddress,
  http,
  parseEventLogs,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { artifact } from '../artifacts';
import { devnetChain } from '../viem-chain';

// What deploying fixtures on a devnet takes, shared by the devnet's own deployment (deploy.ts) and the
// analyzer's extra test fixtures (test/analyzer-fixtures.ts): send, wait, fail loudly on a revert;
// liquidity on Uniswap V2 and V3 (full range, fee 0.3%) against WETH.

const GAS = 12_000_000n;
/** No deadline: fixtures are mined at once. */
const NO_DEADLINE = 2n ** 255n;
/** Full range for fee 0.3% (tick spacing 60). */
export const FULL_RANGE = { tickLower: -887220, tickUpper: 887220 } as const;

export function isqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + value / x) / 2n;
  }
  return x;
}

export type Deployer = ReturnType<typeof deployerFor>;

/** Deploys and calls contracts from `artifacts` as the account of `key`, each transaction mined before the next. */
export function deployerFor(client: PublicClient, rpcUrl: string, chainId: number, key: Hex) {
  const account = privateKeyToAccount(key);
  const wallet = createWalletClient({ account, chain: devnetChain(chainId, rpcUrl), transport: http(rpcUrl) });
  const mined = async (hash: Hex): Promise<TransactionReceipt> => {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`devnet fixture transaction ${hash} reverted`);
    return receipt;
  };
  const deploy = async (name: string, args: unknown[] = []): Promise<Address> => {
    const { abi, bytecode } = artifact(name);
    const receipt = await mined(await wallet.deployContract({ abi, bytecode, args, gas: GAS }));
    return getAddress(receipt.contractAddress!);
  };
  const call = async (to: Address, name: string, functionName: string, args: unknown[] = [], value = 0n) =>
    mined(await wallet.writeContract({ address: to, abi: artifact(name).abi, functionName, args, value, gas: GAS }));
  const read = <T>(to: Address, name: string, functionName: string, args: unknown[] = []) =>
    client.readContract({ address: to, abi: artifact(name).abi, functionName, args }) as Promise<T>;
  return { account, wallet, mined, deploy, call, read };
}

export interface DexAddresses {
  weth: Address;
  uniswapV2Factory: Address;
  uniswapV2Router: Address;
  uniswapV3Factory: Address;
  uniswapV3PositionManager: Address;
}

/** A V2 pair of `token` with WETH; the LP tokens go to `lpTo` (default: the deployer). Returns the pair. */
export async function addV2Liquidity(
  d: Deployer,
  dex: DexAddresses,
  token: Address,
  amounts: { tokens: bigint; eth: bigint },
  lpTo: Address = d.account.address,
): Promise<Address> {
  await d.call(token, 'PlatformToken', 'approve', [dex.uniswapV2Router, amounts.tokens]);
  await d.call(
    dex.uniswapV2Router,
    'UniswapV2Router02',
    'addLiquidityETH',
    [token, amounts.tokens, 0n, 0n, lpTo, NO_DEADLINE],
    amounts.eth,
  );
  return getAddress(await d.read<Address>(dex.uniswapV2Factory, 'UniswapV2Factory', 'getPair', [token, dex.weth]));
}

/**
 * A full-range V3 position (fee 0.3%) of `token` with WETH, the pool created at the amounts' price
 * when needed; the position NFT goes to `recipient` (default: the deployer). Returns the pool and the NFT id.
 */
export async function addV3Liquidity(
  d: Deployer,
  dex: DexAddresses,
  token: Address,
  amounts: { tokens: bigint; eth: bigint },
  recipient: Address = d.account.address,
): Promise<{ pool: Address; tokenId: bigint }> {
  const { weth, uniswapV3PositionManager: manager } = dex;
  await d.call(weth, 'WETH9', 'deposit', [], amounts.eth);
  const [token0, token1] = token.toLowerCase() < weth.toLowerCase() ? [token, weth] : [weth, token];
  const [amount0, amount1] = token0 === token ? [amounts.tokens, amounts.eth] : [amounts.eth, amounts.tokens];
  await d.call(manager, 'NonfungiblePositionManager', 'createAndInitializePoolIfNecessary', [
    token0,
    token1,
    3000,
    isqrt((amount1 << 192n) / amount0),
  ]);
  await d.call(token, 'PlatformToken', 'approve', [manager, amounts.tokens]);
  await d.call(weth, 'WETH9', 'approve', [manager, amounts.eth]);
  const minted = await d.call(manager, 'NonfungiblePositionManager', 'mint', [
    {
      token0,
      token1,
      fee: 3000,
      ...FULL_RANGE,
      amount0Desired: amount0,
      amount1Desired: amount1,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient,
      deadline: NO_DEADLINE,
    },
  ]);
  const [increase] = parseEventLogs({
    abi: artifact('NonfungiblePositionManager').abi as Abi,
    logs: minted.logs,
    eventName: 'IncreaseLiquidity',
  });
  const tokenId = (increase as unknown as { args: { tokenId: bigint } }).args.tokenId;
  const pool = getAddress(await d.read<Address>(dex.uniswapV3Factory, 'UniswapV3Factory', 'getPool', [token, weth, 3000]));
  return { pool, tokenId };
}

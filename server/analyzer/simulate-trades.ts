import {
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  keccak256,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { artifact } from '../chain/artifacts';
import { rpcError } from '../chain/client';
import { sharedCache } from '../core/shared-state';

// Trade simulation with eth_call and state overrides (no transaction is ever sent): the probe's
// runtime code (contracts/AnalyzerProbe.sol) is placed at a throwaway address that is given ETH,
// then one call buys, transfers to a fresh account, approves and sells, and returns every amount.
// A block override moves the simulated time forward for the delayed-honeypot recheck.

const throwaway = (label: string): Address => getAddress(`0x${keccak256(toHex(label)).slice(-40)}`);
export const PROBE_ADDRESS = throwaway('vouchsafe.analyzer.probe');
export const FRIEND_ADDRESS = throwaway('vouchsafe.analyzer.fresh-account');

export interface Pool {
  version: 2 | 3;
  address: Address;
  /** V2 router or SwapRouter02. */
  router: Address;
  /** V3 fee tier (0 for V2). */
  fee: number;
  /** Wrapped native token held by the pool (its depth). */
  wethReserve: bigint;
}

export interface TradeResult {
  buyOk: boolean;
  buyError: string | null;
  poolTokensOut: bigint;
  bought: bigint;
  transferOk: boolean;
  sent: bigint;
  received: bigint;
  approveOk: boolean;
  sellOk: boolean;
  sellError: string | null;
  sold: bigint;
  poolTokensIn: bigint;
  ethOut: bigint;
  buyGas: bigint;
  sellGas: bigint;
  adminOk: boolean;
  balanceAfterAdmin: bigint;
  sellAllOk: boolean;
  sellHalfOk: boolean;
  /** Largest share of the balance that sells in one transaction, in basis points (bisection). */
  maxSellBps: bigint;
  firstSmallSellOk: boolean;
  secondSmallSellOk: boolean;
  /** The ETH the buy spent. */
  ethIn: bigint;
}

/**
 * A privileged call made during the simulation as `caller` (its code is overridden with the probe's,
 * whose relay() makes the call): before the buy (stage 0) or right after it (stage 1).
 */
export interface AdminCall {
  caller: Address;
  data: Hex;
  stage: 0 | 1;
}

const probeCode = sharedCache<Hex>('analyzer.probe-code', { ttlMs: 24 * 3600_000, dropOn: [] });

/** The probe's runtime code: what its creation code returns, run once with eth_call. */
async function runtimeCode(client: PublicClient, chainKey: string): Promise<Hex> {
  return probeCode().get(chainKey, async () => {
    try {
      const { data } = await client.call({ data: artifact('AnalyzerProbe').bytecode });
      if (!data || data === '0x') throw new Error('the probe deployment returned no code');
      return data;
    } catch (error) {
      throw rpcError(error);
    }
  });
}

function revertReason(data: Hex): string | null {
  if (data === '0x') return null;
  try {
    const decoded = decodeErrorResult({ data });
    return decoded.args?.length ? String(decoded.args[0]) : decoded.errorName;
  } catch {
    return `custom error ${data.slice(0, 10)}`;
  }
}

/** Trade size: 0.5% of the pool's wrapped native reserve, between 1 gwei and 1 ETH. */
export function tradeSize(pool: Pool): bigint {
  const size = pool.wethReserve / 200n;
  if (size > 10n ** 18n) return 10n ** 18n;
  return size < 10n ** 9n ? 10n ** 9n : size;
}

export async function simulateTrades(
  client: PublicClient,
  chainKey: string,
  input: {
    token: Address;
    weth: Address;
    pool: Pool;
    timestamp?: bigint;
    admin?: AdminCall;
    /** The ETH to buy with (default tradeSize(pool)). */
    ethIn?: bigint;
    /** Extra code overrides (e.g. a contract replaced by one that reverts). */
    codeOverrides?: { address: Address; code: Hex }[];
  },
): Promise<TradeResult> {
  const { abi } = artifact('AnalyzerProbe');
  const code = await runtimeCode(client, chainKey);
  const ethIn = input.ethIn ?? tradeSize(input.pool);
  const params = {
    version: input.pool.version,
    router: input.pool.router,
    pool: input.pool.address,
    token: input.token,
    weth: input.weth,
    fee: input.pool.fee,
    friend: FRIEND_ADDRESS,
    ethIn,
    transferBps: 1000n,
  };
  const data = input.admin
    ? encodeFunctionData({ abi, functionName: 'probeAs', args: [params, input.admin] })
    : encodeFunctionData({ abi, functionName: 'probe', args: [params] });
  const overrides: { address: Address; code: Hex; balance?: bigint }[] = [
    { address: PROBE_ADDRESS, code, balance: ethIn * 2n },
    ...(input.codeOverrides ?? []),
  ];
  if (input.admin) overrides.push({ address: input.admin.caller, code, balance: 0n });
  let raw: Hex | undefined;
  try {
    ({ data: raw } = await client.call({
      to: PROBE_ADDRESS,
      data,
      gas: 30_000_000n,
      stateOverride: overrides.map(({ balance, ...rest }) => (balance ? { ...rest, balance } : rest)),
      blockOverrides: input.timestamp !== undefined ? { time: input.timestamp } : undefined,
    }));
  } catch (error) {
    throw rpcError(error);
  }
  const result = decodeFunctionResult({ abi, functionName: 'probe', data: raw ?? '0x' }) as Omit<
    TradeResult,
    'buyError' | 'sellError'
  > & { buyError: Hex; sellError: Hex };
  return {
    ...result,
    ethIn,
    buyError: result.buyOk ? null : (revertReason(result.buyError) ?? 'reverted'),
    sellError: result.sellOk ? null : (revertReason(result.sellError) ?? 'reverted'),
  };
}

/** Tax in percent from what was expected and what arrived (2 decimals); null when nothing moved. */
export function taxPercent(expected: bigint, actual: bigint): number | null {
  if (expected <= 0n) return null;
  if (actual >= expected) return 0;
  return Number(((expected - actual) * 10_000n) / expected) / 100;
}

import { randomUUID } from 'node:crypto';
import { encodeFunctionData, formatUnits, parseUnits, type Address, type Hex } from 'viem';
import { artifact } from '../chain/artifacts';
import { chain, classifyChainFailure, rpcError, withChainDeadline } from '../chain/client';
import { ApiError } from '../core/errors';
import { resolveToken } from './tokens';

// Quotes (spec: Trade quote; Limits: valid 30 s, slippage_bps default 50): Uniswap V3 QuoterV2 over
// the fee tiers (or the one asked for) and Uniswap V2 getAmountsOut, all by eth_call on the
// configured chain; the best output wins. The quote carries the unsigned swap transaction for the
// caller's wallet to sign and send back through POST /trade/swap (never custody of keys).

export const V3_FEE_TIERS = [100, 500, 3000, 10000] as const;
export const QUOTE_VALIDITY_MS = 30_000;
export const DEFAULT_SLIPPAGE_BPS = 50;
/** Gas for a V2 swap (V2 has no quoter that measures it): a typical two-token swap. */
const V2_GAS_ESTIMATE = 150_000n;
/** SwapRouter02's ADDRESS_THIS: the router keeps the output (to unwrap WETH for ETH out). */
const ADDRESS_THIS = '0x0000000000000000000000000000000000000002';

export interface QuoteInput {
  tokenIn: string;
  tokenOut: string;
  amountIn?: string;
  amountInRaw?: string;
  fee?: number;
  slippageBps?: number;
  /** The wallet the unsigned transaction pays out to (the caller). */
  recipient?: Address | null;
}

interface Route {
  dex: 'uniswap_v3' | 'uniswap_v2';
  fee: number;
  amountOut: bigint;
  gas: bigint;
}

/** A quote: its chain reads answer 503 (node down) or 504 (past CHAIN_DEADLINE_MS), never hang. */
export function quote(input: QuoteInput) {
  return withChainDeadline(quoteOnChain(input));
}

async function quoteOnChain(input: QuoteInput) {
  const context = await chain();
  const [tokenIn, tokenOut] = await Promise.all([
    resolveToken(input.tokenIn, 'token_in'),
    resolveToken(input.tokenOut, 'token_out'),
  ]);
  if (tokenIn.routeAddress === tokenOut.routeAddress) {
    throw new ApiError('invalid_request', 'token_in and token_out must differ', { fields: { token_out: 'same as token_in' } });
  }
  let amountIn: bigint;
  try {
    if (input.amountInRaw !== undefined) amountIn = BigInt(input.amountInRaw);
    else if (input.amountIn !== undefined) amountIn = parseUnits(input.amountIn, tokenIn.decimals);
    else throw new Error('missing');
  } catch {
    throw new ApiError('invalid_request', 'amount_in (human readable) or amount_in_raw (integer) is required', {
      fields: { amount_in: 'required: a positive decimal, or amount_in_raw' },
    });
  }
  if (amountIn <= 0n)
    throw new ApiError('invalid_request', 'amount_in must be positive', { fields: { amount_in: 'must be positive' } });
  const slippageBps = input.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
  const { client, addresses } = context;

  const quoter = artifact('QuoterV2').abi;
  const fees = input.fee ? [input.fee] : [...V3_FEE_TIERS];
  const attempts: Promise<Route | null>[] = fees.map(async (fee) => {
    try {
      const { result } = await client.simulateContract({
        address: addresses.uniswapV3Quoter,
        abi: quoter,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn: tokenIn.routeAddress, tokenOut: tokenOut.routeAddress, amountIn, fee, sqrtPriceLimitX96: 0n }],
      });
      const [amountOut, , , gas] = result as [bigint, bigint, number, bigint];
      return amountOut > 0n ? ({ dex: 'uniswap_v3', fee, amountOut, gas } as Route) : null;
    } catch (error) {
      return noPool(error);
    }
  });
  if (!input.fee) {
    attempts.push(
      (async () => {
        try {
          const amounts = (await client.readContract({
            address: addresses.uniswapV2Router,
            abi: artifact('UniswapV2Router02').abi,
            functionName: 'getAmountsOut',
            args: [amountIn, [tokenIn.routeAddress, tokenOut.routeAddress]],
          })) as bigint[];
          const amountOut = amounts[amounts.length - 1]!;
          return amountOut > 0n ? ({ dex: 'uniswap_v2', fee: 3000, amountOut, gas: V2_GAS_ESTIMATE } as Route) : null;
        } catch (error) {
          return noPool(error);
        }
      })(),
    );
  }
  const routes = (await Promise.all(attempts)).filter((route): route is Route => route !== null);
  if (routes.length === 0) {
    throw new ApiError('unprocessable', 'No Uniswap pool on this chain can fill this swap', {
      reason: 'no_route',
      fee_tiers_tried: fees,
    });
  }
  const best = routes.reduce((a, b) => (b.amountOut > a.amountOut ? b : a));
  const amountOutMin = (best.amountOut * BigInt(10_000 - slippageBps)) / 10_000n;
  const router = best.dex === 'uniswap_v3' ? addresses.swapRouterAllowlist[0]! : addresses.uniswapV2Router;
  const amountInHuman = formatUnits(amountIn, tokenIn.decimals);
  const amountOutHuman = formatUnits(best.amountOut, tokenOut.decimals);
  const expiresAt = new Date(Date.now() + QUOTE_VALIDITY_MS);
  const transaction = input.recipient
    ? swapTransaction({
        dex: best.dex,
        router,
        fee: best.fee,
        tokenIn: tokenIn.routeAddress,
        tokenOut: tokenOut.routeAddress,
        nativeIn: tokenIn.native,
        nativeOut: tokenOut.native,
        amountIn,
        amountOutMin,
        recipient: input.recipient,
        deadline: BigInt(Math.floor(expiresAt.getTime() / 1000) + 60),
      })
    : null;
  return {
    quote_id: `q_${randomUUID()}`,
    chain_id: context.chainId,
    token_in: { address: tokenIn.address, symbol: tokenIn.symbol, decimals: tokenIn.decimals },
    token_out: { address: tokenOut.address, symbol: tokenOut.symbol, decimals: tokenOut.decimals },
    amount_in_raw: amountIn.toString(),
    amount_in_human: amountInHuman,
    amount_out_raw: best.amountOut.toString(),
    amount_out_human: amountOutHuman,
    price_per_token_in: Number(amountOutHuman) / Number(amountInHuman),
    dex: best.dex,
    fee_tier: best.fee,
    slippage_bps: slippageBps,
    amount_out_min_raw: amountOutMin.toString(),
    gas_estimate: best.gas.toString(),
    router,
    transaction,
    expires_at: expiresAt.toISOString(),
  };
}

export type Quote = Awaited<ReturnType<typeof quote>>;

/** A revert (no pool, no liquidity) is "no route"; a failing node is 502. */
function noPool(error: unknown): null {
  const message = (error as Error)?.message ?? '';
  // viem wraps a dead or slow node in ContractFunctionExecutionError too: that is 503/504, not "no pool".
  if (classifyChainFailure(error) !== 'rpc_error') throw rpcError(error);
  if (
    /revert|execution reverted|ContractFunctionExecutionError|returned no data/i.test(message) ||
    (error as { name?: string })?.name?.includes('ContractFunction')
  )
    return null;
  throw rpcError(error);
}

interface SwapTxInput {
  dex: 'uniswap_v3' | 'uniswap_v2';
  router: Address;
  fee: number;
  tokenIn: Address;
  tokenOut: Address;
  nativeIn: boolean;
  nativeOut: boolean;
  amountIn: bigint;
  amountOutMin: bigint;
  recipient: Address;
  deadline: bigint;
}

/** The unsigned transaction {to, data, value} that performs the quoted swap for `recipient`. */
export function swapTransaction(input: SwapTxInput): { to: Address; data: Hex; value: string; approve: Address | null } {
  const value = input.nativeIn ? input.amountIn : 0n;
  const approve = input.nativeIn ? null : input.tokenIn;
  if (input.dex === 'uniswap_v2') {
    const abi = artifact('UniswapV2Router02').abi;
    const path = [input.tokenIn, input.tokenOut];
    const [functionName, args] = input.nativeIn
      ? ['swapExactETHForTokens', [input.amountOutMin, path, input.recipient, input.deadline]]
      : input.nativeOut
        ? ['swapExactTokensForETH', [input.amountIn, input.amountOutMin, path, input.recipient, input.deadline]]
        : ['swapExactTokensForTokens', [input.amountIn, input.amountOutMin, path, input.recipient, input.deadline]];
    return { to: input.router, data: encodeFunctionData({ abi, functionName, args }), value: value.toString(), approve };
  }
  const abi = artifact('SwapRouter02').abi;
  const swap = encodeFunctionData({
    abi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: input.tokenIn,
        tokenOut: input.tokenOut,
        fee: input.fee,
        recipient: input.nativeOut ? ADDRESS_THIS : input.recipient,
        amountIn: input.amountIn,
        amountOutMinimum: input.amountOutMin,
        sqrtPriceLimitX96: 0n,
      },
    ],
  });
  const calls: Hex[] = [swap];
  if (input.nativeOut) {
    calls.push(encodeFunctionData({ abi, functionName: 'unwrapWETH9', args: [input.amountOutMin, input.recipient] }));
  }
  const data = encodeFunctionData({ abi, functionName: 'multicall', args: [input.deadline, calls] });
  return { to: input.router, data, value: value.toString(), approve };
}

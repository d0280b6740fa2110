import { formatUnits, parseUnits, type Address } from 'viem';
import { chain } from '../chain/client';
import { tokenDecimals } from '../chain/tokens';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { quote } from './quote';
import { stableToken } from './tokens';

// Prices (GET /api/v1/trade/price, smart-money amount_usd). A token's price in ETH is the best
// Uniswap quote of one whole token into WETH on the chain; USD per ETH comes from, in order:
// a quote of 1 WETH into the USD stable token (USD_STABLE_TOKEN; Base USDC on a Base node)
// -> method "stable_pair"; ETH_USD_PRICE -> "eth_usd_config"; the devnet's reference 3000 USD
// (it has no stable token) -> "devnet_reference". Anything else: no USD price (null), never a made-up one.

export type UsdMethod = 'stable_pair' | 'eth_usd_config' | 'devnet_reference';
export const DEVNET_ETH_USD = 3000;

export async function usdPerEth(): Promise<{ usd: number; method: UsdMethod } | null> {
  const context = await chain();
  const stable = stableToken(context);
  if (stable) {
    try {
      const q = await quote({ tokenIn: context.addresses.weth, tokenOut: stable, amountIn: '1' });
      return { usd: Number(q.amount_out_human), method: 'stable_pair' };
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'unprocessable') throw error;
    }
  }
  const configured = currentRuntime().config.ETH_USD_PRICE;
  if (configured) return { usd: configured, method: 'eth_usd_config' };
  if (context.source === 'devnet') return { usd: DEVNET_ETH_USD, method: 'devnet_reference' };
  return null;
}

/** ETH for one whole token (1 for WETH/ETH); null when no pool prices it. */
export async function priceInEth(token: Address): Promise<number | null> {
  const context = await chain();
  if (token === context.addresses.weth) return 1;
  try {
    const decimals = await tokenDecimals(token);
    const q = await quote({
      tokenIn: token,
      tokenOut: context.addresses.weth,
      amountInRaw: parseUnits('1', decimals).toString(),
    });
    return Number(q.amount_out_human);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'unprocessable') return null;
    throw error;
  }
}

/** USD value of `raw` units of `token`, with the method; null when not priceable. */
export async function usdValue(token: Address, raw: bigint): Promise<{ usd: number; method: UsdMethod } | null> {
  const [eth, perEth] = await Promise.all([priceInEth(token), usdPerEth()]);
  if (eth === null || perEth === null) return null;
  const amount = Number(formatUnits(raw, await tokenDecimals(token)));
  return { usd: amount * eth * perEth.usd, method: perEth.method };
}

export async function prices(tokens: Address[]) {
  const perEth = await usdPerEth();
  const entries = await Promise.all(
    tokens.map(async (token) => {
      const eth = await priceInEth(token);
      return [
        token,
        {
          price_eth: eth,
          price_usd: eth !== null && perEth ? eth * perEth.usd : null,
          source: eth === null ? 'no_pool' : 'uniswap',
        },
      ] as const;
    }),
  );
  return {
    prices: Object.fromEntries(entries),
    eth_usd: perEth?.usd ?? null,
    usd_method: perEth?.method ?? null,
    timestamp: new Date().toISOString(),
  };
}

import { readFileSync } from 'node:fs';
import { getAddress, isAddress, zeroAddress, type Address } from 'viem';
import { chain, classifyChainFailure, rpcError, type ChainContext } from '../chain/client';
import { tokenDecimals } from '../chain/tokens';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';

// The curated token list (GET /api/v1/trade/tokens): TRADE_TOKEN_LIST (a JSON file, an array of
// {address, symbol, decimals, name?} or a Uniswap token list {tokens: [...]}) or, unset, the chain's
// default: on the devnet ETH, WETH, the platform token and the sample tokens; on a configured node
// ETH, WETH, the platform token (when set) and USD_STABLE_TOKEN (Base USDC by default on 8453).

export interface TradeToken {
  address: Address;
  symbol: string;
  name: string;
  decimals: number;
  /** True for the chain's native coin (address 0x0; "ETH" in requests). */
  native: boolean;
}

/** Base mainnet USDC (docs.base.org, Circle's published address); the default USD price source on chain 8453. */
export const BASE_USDC = getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bda02913');

export const ETH_TOKEN: TradeToken = { address: zeroAddress, symbol: 'ETH', name: 'Ether', decimals: 18, native: true };

function fromFile(path: string): TradeToken[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const list = Array.isArray(parsed) ? parsed : ((parsed as { tokens?: unknown[] }).tokens ?? []);
  return list.map((entry) => {
    const item = entry as { address: string; symbol: string; name?: string; decimals: number };
    return {
      address: getAddress(item.address),
      symbol: String(item.symbol),
      name: String(item.name ?? item.symbol),
      decimals: Number(item.decimals),
      native: false,
    };
  });
}

/** The USD stable token used for prices, when there is one (docs/spec-decisions.md, Trade). */
export function stableToken(context: ChainContext): Address | null {
  const configured = currentRuntime().config.USD_STABLE_TOKEN;
  if (configured) return configured;
  return context.source === 'configured' && context.chainId === 8453 ? BASE_USDC : null;
}

export async function tradeTokens(): Promise<TradeToken[]> {
  const context = await chain();
  const { config } = currentRuntime();
  if (config.TRADE_TOKEN_LIST) return [ETH_TOKEN, ...fromFile(config.TRADE_TOKEN_LIST)];
  const tokens: TradeToken[] = [
    ETH_TOKEN,
    { address: context.addresses.weth, symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, native: false },
  ];
  if (context.addresses.platformToken) {
    tokens.push({
      address: context.addresses.platformToken,
      symbol: 'VOUCH',
      name: 'Platform token',
      decimals: 18,
      native: false,
    });
  }
  const stable = stableToken(context);
  if (stable)
    tokens.push({ address: stable, symbol: 'USDC', name: 'USD Coin', decimals: await tokenDecimals(stable), native: false });
  for (const sample of context.devnet?.sampleTokens ?? []) {
    tokens.push({ address: sample.address, symbol: sample.symbol, name: sample.description, decimals: 18, native: false });
  }
  return tokens;
}

/** A token named by address or "ETH": its address for routing (WETH for ETH) and decimals. */
export async function resolveToken(value: string, field: string): Promise<TradeToken & { routeAddress: Address }> {
  const context = await chain();
  if (value.toUpperCase() === 'ETH' || value.toLowerCase() === zeroAddress) {
    return { ...ETH_TOKEN, routeAddress: context.addresses.weth };
  }
  if (!isAddress(value, { strict: false })) {
    throw new ApiError('invalid_request', `${field} must be a token address or ETH`, {
      fields: { [field]: 'must be an address or ETH' },
    });
  }
  const address = getAddress(value.toLowerCase());
  const listed = (await tradeTokens()).find((token) => token.address === address);
  if (listed) return { ...listed, routeAddress: address };
  let decimals: number;
  try {
    decimals = await tokenDecimals(address);
  } catch (error) {
    // A dead or slow node is 503/504, not "not a token".
    if (classifyChainFailure(error) !== 'rpc_error') throw rpcError(error);
    throw new ApiError('unprocessable', `${field} is not an ERC-20 token on this chain`, { fields: { [field]: 'not a token' } });
  }
  return { address, symbol: address.slice(0, 8), name: address, decimals, native: false, routeAddress: address };
}

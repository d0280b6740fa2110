import { z } from '@hono/zod-openapi';
import { addressOut, timestamp } from './common';

// Trade (spec: Trade quote, Swap execution, Strategy; Limits: quote 30 s, slippage_bps default 50).

const tokenRef = z
  .string()
  .regex(/^(0x[0-9a-fA-F]{40}|ETH|eth)$/, 'must be a token address or ETH')
  .openapi({ description: 'Token address, or ETH for the native coin' });
const rawAmount = z.string().regex(/^\d{1,78}$/, 'must be a whole number of base units');
const slippage = z.coerce
  .number()
  .int()
  .min(0)
  .max(5000)
  .default(50)
  .openapi({ type: 'integer', minimum: 0, maximum: 5000, default: 50 });

export const tradeToken = z
  .strictObject({ address: addressOut, symbol: z.string(), name: z.string(), decimals: z.number().int(), native: z.boolean() })
  .openapi('TradeToken');
export const tradeTokenList = z
  .strictObject({ chain_id: z.number().int(), tokens: z.array(tradeToken), count: z.number().int() })
  .openapi('TradeTokenList');

export const quoteQuery = z.object({
  token_in: tokenRef,
  token_out: tokenRef,
  amount_in: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a positive decimal')
    .optional(),
  amount_in_raw: rawAmount.optional(),
  fee: z
    .enum(['100', '500', '3000', '10000'], { message: 'must be 100, 500, 3000 or 10000' })
    .transform(Number)
    .optional()
    .openapi({ description: 'Uniswap V3 fee tier; omitted: every tier and V2, the best wins' }),
  slippage_bps: slippage,
});

const quotedToken = z.strictObject({ address: addressOut, symbol: z.string(), decimals: z.number().int() });
export const unsignedTx = z
  .strictObject({
    to: addressOut,
    data: z.string(),
    value: z.string().openapi({ description: 'wei' }),
    approve: addressOut
      .nullable()
      .openapi({ description: 'The token the router must be allowed to spend first (null for ETH in)' }),
  })
  .openapi('UnsignedSwapTransaction');

export const tradeQuote = z
  .strictObject({
    quote_id: z.string(),
    chain_id: z.number().int(),
    token_in: quotedToken,
    token_out: quotedToken,
    amount_in_raw: z.string(),
    amount_in_human: z.string(),
    amount_out_raw: z.string(),
    amount_out_human: z.string(),
    price_per_token_in: z.number(),
    dex: z.enum(['uniswap_v3', 'uniswap_v2']),
    fee_tier: z.number().int(),
    slippage_bps: z.number().int(),
    amount_out_min_raw: z.string(),
    gas_estimate: z.string(),
    router: addressOut,
    transaction: unsignedTx
      .nullable()
      .openapi({ description: 'The swap for the caller’s wallet to sign and relay (POST /trade/swap)' }),
    expires_at: timestamp,
  })
  .openapi('TradeQuote');

export const priceQuery = z.object({
  tokens: z
    .string()
    .min(1)
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'each must be an address'))
        .min(1)
        .max(25),
    )
    .openapi({ type: 'string', description: 'Comma-separated token addresses (at most 25)' }),
});

export const tokenPrice = z.strictObject({
  price_eth: z.number().nullable(),
  price_usd: z.number().nullable(),
  source: z.enum(['uniswap', 'no_pool']),
});
export const tradePrices = z
  .strictObject({
    prices: z.record(z.string(), tokenPrice),
    eth_usd: z.number().nullable(),
    usd_method: z.enum(['stable_pair', 'eth_usd_config', 'devnet_reference']).nullable(),
    timestamp,
  })
  .openapi('TradePrices');

export const swapBody = z.object({
  signed_tx: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, 'must be a hex string')
    .max(100_000),
  token_in: z.string().max(64).optional(),
  token_out: z.string().max(64).optional(),
  amount_in_raw: rawAmount.optional(),
  amount_out_raw: rawAmount.optional(),
  fee_tier: z.number().int().optional(),
  slippage_bps: z.number().int().min(0).max(5000).optional(),
});
export const swapExecution = z
  .strictObject({
    execution_id: z.uuid(),
    tx_hash: z.string(),
    status: z.literal('submitted'),
    basescan_url: z.string(),
  })
  .openapi('SwapExecution');

const strategyType = z.enum(['dca', 'limit', 'stop-loss', 'take-profit']);
export const createStrategyBody = z.object({
  name: z.string().trim().min(1).max(100),
  strategy_type: strategyType,
  token_in: tokenRef,
  token_out: tokenRef,
  // zod runs a refinement even after the regex failed: only a whole number reaches BigInt.
  amount_in_raw: rawAmount.refine((value) => !/^\d{1,78}$/.test(value) || BigInt(value) > 0n, 'must be positive'),
  interval_seconds: z
    .number()
    .int()
    .min(60)
    .max(365 * 86400),
  max_executions: z.number().int().min(1).max(100_000).optional(),
  slippage_bps: z.number().int().min(0).max(5000).default(50),
  trigger_price: z
    .number()
    .positive()
    .optional()
    .openapi({ description: 'limit / take-profit: fire at or above; stop-loss: at or below (token_out per token_in)' }),
});

export const strategy = z
  .strictObject({
    strategy_id: z.uuid(),
    name: z.string(),
    strategy_type: strategyType,
    token_in: addressOut,
    token_out: addressOut,
    amount_in_raw: z.string(),
    interval_seconds: z.number().int(),
    max_executions: z.number().int().nullable(),
    slippage_bps: z.number().int(),
    trigger_price: z.number().nullable(),
    status: z.enum(['active', 'paused', 'cancelled', 'completed']),
    executions_count: z.number().int(),
    next_run_at: timestamp.nullable(),
    owner_wallet: addressOut,
    created_at: timestamp,
  })
  .openapi('Strategy');

export const strategyCreated = z.strictObject({ ...strategy.shape, creation_fee_claw: z.number() }).openapi('StrategyCreated');
export const strategyExecution = z
  .strictObject({
    execution_id: z.uuid(),
    status: z.enum(['quoted', 'skipped', 'failed']),
    quote: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('StrategyExecution');
export const strategyDetail = z
  .strictObject({ ...strategy.shape, recent_executions: z.array(strategyExecution) })
  .openapi('StrategyDetail');
export const strategyList = z.strictObject({ strategies: z.array(strategy), total: z.number().int() }).openapi('StrategyList');
export const patchStrategyBody = z.object({ status: z.enum(['active', 'paused', 'cancelled']) });

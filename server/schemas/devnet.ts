import { z } from '@hono/zod-openapi';
import { TIERS } from './enums';
import { addressOut, walletAddress } from './common';

// The bundled devnet's faucet (issue 11).

export const faucetBody = z
  .object({
    wallet_address: walletAddress,
    platform_tokens: z.number().min(0).max(100_000_000).default(0).openapi({
      description: 'Platform tokens to mint to the wallet (tiers: entry 1,000,000; pro 10,000,000; enterprise 50,000,000)',
    }),
    eth: z.number().min(0).max(100).default(0).openapi({ description: 'ETH to add for gas' }),
    usdc: z.number().min(0).max(1_000_000).multipleOf(0.000001).default(0).openapi({
      description: 'Devnet USDC (the x402 payment token, 6 decimals; docs/payments.md) to mint to the wallet',
    }),
  })
  .openapi('FaucetRequest');

export const faucetResult = z
  .strictObject({
    wallet_address: addressOut,
    platform_token: addressOut,
    platform_tokens_sent: z.number(),
    eth_sent: z.number(),
    tx_hash: z.string().nullable(),
    platform_token_balance: z.string().openapi({ description: 'whole tokens' }),
    eth_balance: z.string(),
    usdc: addressOut.nullable().openapi({ description: 'the devnet USDC token (x402 payments)' }),
    usdc_sent: z.number(),
    usdc_balance: z.string().openapi({ description: 'USDC, decimal string (6 decimals)' }),
    tier: z.enum(TIERS),
  })
  .openapi('FaucetResult');

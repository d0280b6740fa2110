import { z } from '@hono/zod-openapi';
import { clawToMicro } from '../core/money';
import { addressOut, clawOut, timestamp } from './common';

// CLAW credits: balance, ledger entries and deposits.

export const creditTransaction = z
  .strictObject({
    transaction_id: z.uuid(),
    direction: z.enum(['credit', 'debit']),
    amount_claw: clawOut,
    reason: z.string(),
    ref_type: z.string().nullable(),
    ref_id: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('CreditTransaction');

export const credits = z
  .strictObject({
    wallet: addressOut,
    balance_claw: clawOut,
    daily_spend_claw: clawOut,
    daily_limit_claw: clawOut.nullable(),
    transactions: z.array(creditTransaction),
  })
  .openapi('Credits');

export const depositInstructions = z
  .strictObject({
    chain_id: z.number().int(),
    treasury_address: addressOut.nullable(),
    accepted_tokens: z.array(z.strictObject({ address: addressOut, rate_claw_per_token: z.number() })),
    rate: z.string(),
    confirmations: z.number().int(),
    how_to: z.string(),
  })
  .openapi('DepositInstructions');

export const depositClaimBody = z
  .object({
    tx_hash: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte transaction hash')
      .openapi({ description: 'Hash of the transaction that transferred the tokens to the treasury' }),
  })
  .openapi('DepositClaimRequest');

export const depositClaim = z
  .strictObject({
    credited: z.literal(true),
    amount_claw: clawOut,
    new_balance_claw: clawOut,
    tx_hash: z.string(),
    block_number: z.number().int(),
    transfers: z.array(
      z.strictObject({
        token: addressOut,
        amount_raw: z.string().openapi({ description: 'token base units' }),
        log_index: z.number().int(),
      }),
    ),
  })
  .openapi('DepositClaim');

// x402 top-ups (docs/payments.md): CLAW bought with USDC.

/** A positive amount with at most 6 decimals (USDC and CLAW both have 6), parsed to its smallest units. */
const sixDecimals = (description: string) =>
  z
    .number({ message: 'must be a number' })
    .max(1e9, 'must be at most 1,000,000,000')
    .transform((value, context) => {
      const units = clawToMicro(value);
      if (units === null || units === 0n) {
        context.addIssue({ code: 'custom', message: 'must be a positive amount with at most 6 decimals' });
        return z.NEVER;
      }
      return units;
    })
    .openapi({ type: 'number', exclusiveMinimum: 0, description });

export const topupBody = z
  .object({
    amount_usdc: sixDecimals('USDC to pay (at most 6 decimals); CLAW credited = amount × X402_CLAW_PER_USDC').optional(),
    amount_claw: sixDecimals('Or: the CLAW to buy; the price is rounded up to a whole USDC unit').optional(),
  })
  .refine((body) => body.amount_usdc === undefined || body.amount_claw === undefined, {
    message: 'send amount_usdc or amount_claw, not both',
    path: ['amount_claw'],
  })
  .openapi('TopupRequest', { description: 'Neither amount: 1 USDC' });

export const topupResult = z
  .strictObject({
    credited: z.literal(true),
    wallet_address: addressOut,
    amount_usdc: z.string().openapi({ description: 'USDC paid, decimal string' }),
    amount_claw: clawOut,
    new_balance_claw: clawOut,
    tx_hash: z.string().openapi({ description: 'the settlement transaction (transferWithAuthorization)' }),
    network: z.string().openapi({ description: 'CAIP-2 network, eip155:8453 on Base' }),
    payer: addressOut,
  })
  .openapi('TopupResult');

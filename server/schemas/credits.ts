import { z } from '@hono/zod-openapi';
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

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

import { z } from '@hono/zod-openapi';
import { getAddress } from 'viem';
import { addressOut, clawAmount, clawOut, timestamp, uuid } from './common';

// Spend policies of a credential (an API key or an access token) and the approvals a spend above a
// policy's threshold waits for (docs/payments.md "Spend policies").

/** A payee a policy allows: an agent id (UUID) or a wallet address (any letter case). */
export const payeeRef = z
  .string()
  .regex(
    /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|0x[0-9a-fA-F]{40})$/,
    'must be an agent id (UUID) or a wallet address',
  )
  .transform((value) => (value.startsWith('0x') ? getAddress(value.toLowerCase()) : value.toLowerCase()))
  .openapi({ type: 'string', description: 'An agent id (UUID) or a wallet address' });

/** What a caller sends: every field optional (absent keeps it), null clears it. */
export const spendPolicyInput = z
  .strictObject({
    allowed_payees: z
      .array(payeeRef)
      .max(100)
      .nullable()
      .optional()
      .openapi({ description: 'Agents or wallets this credential may pay; null: any payee' }),
    max_claw_per_call: clawAmount.nullable().optional().openapi({ description: 'The most one call may spend; null: no maximum' }),
    approval_above_claw: clawAmount
      .nullable()
      .optional()
      .openapi({ description: 'A call spending more waits for the owner’s signed approval; null: never' }),
  })
  .openapi('SpendPolicyInput');

export const spendPolicy = z
  .strictObject({
    allowed_payees: z.array(z.string()).nullable(),
    max_claw_per_call: clawOut.nullable(),
    approval_above_claw: clawOut.nullable(),
  })
  .openapi('SpendPolicy');

export const patchApiKeyBody = z.strictObject({ spend_policy: spendPolicyInput });

export const spendApproval = z
  .strictObject({
    approval_id: z.uuid(),
    status: z.enum(['pending', 'approved', 'rejected', 'used', 'expired']),
    credential_id: z.uuid(),
    reason: z.string(),
    payee_agent_id: z.uuid().nullable(),
    payee_wallet: addressOut.nullable(),
    amount_claw: clawOut,
    created_at: timestamp,
    expires_at: timestamp,
    decided_at: timestamp.nullable(),
    used_at: timestamp.nullable(),
    approve_message: z
      .string()
      .openapi({ description: 'Sign this text followed by a space and the current Unix time in seconds to approve' }),
    reject_message: z.string(),
  })
  .openapi('SpendApproval');

export const spendApprovalList = z.strictObject({ approvals: z.array(spendApproval) }).openapi('SpendApprovalList');

export const approvalDecisionBody = z.strictObject({
  message: z.string().min(1).max(500).openapi({ description: 'approve_message (or reject_message), a space, Unix seconds' }),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, 'must be a hex signature')
    .max(20_000)
    .openapi({ description: 'The owner wallet’s EIP-191 signature of message' }),
});

export const approvalListQuery = z.object({
  status: z.enum(['pending', 'approved', 'rejected', 'used', 'expired']).optional(),
});

export const approvalRef = z.object({ id: uuid });

import { z } from '@hono/zod-openapi';
import { isKnownScope } from '../core/scopes';
import { agentB } from './agent';
import { TIERS } from './enums';
import { addressOut, clawAmount, timestamp, uuid, walletAddress } from './common';
import { spendPolicyInput } from './spend-policy';

// Wallet sign-in (challenge and token result) and sessions.

// User text that goes into the signed statement: one line, no control characters.
const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u, 'must be one line without control characters');

export const challengeBody = z.object({
  owner_wallet: walletAddress,
  agent_pubkey: oneLine(256).openapi({ description: 'Any unique string identifying the agent' }),
  agent_name: oneLine(100).optional(),
  requested_scopes: z.array(z.string().refine(isKnownScope, 'unknown scope')).max(50).optional(),
  max_spend_claw_per_day: clawAmount.optional(),
  spend_policy: spendPolicyInput.optional().openapi({
    description: 'The spend policy of the issued token (and of the API key issued with it); named in the signed text',
  }),
});

export const challenge = z
  .strictObject({ challenge: z.string(), challenge_id: z.uuid(), expires_at: timestamp })
  .openapi('Challenge');

export const verifyBody = z.object({ challenge_id: uuid, signature: z.string().min(1).max(10_000) });

export const tokenResult = z
  .strictObject({
    token: z.string(),
    token_type: z.literal('Bearer'),
    expires_at: timestamp,
    wallet_address: addressOut,
    agent_pubkey: z.string(),
    scopes: z.array(z.string()),
    agent: agentB.nullable(),
    tier: z.enum(TIERS),
    api_key: z.string().nullable().openapi({ description: 'The permanent ck_ key, shown on the first verify only' }),
    api_key_prefix: z.string(),
  })
  .openapi('TokenResult');

export const session = z
  .strictObject({
    wallet_address: addressOut,
    agent_id: z.uuid().nullable(),
    agent_pubkey: z.string().nullable(),
    scopes: z.array(z.string()),
    via: z.enum(['bearer', 'api_key', 'signature']),
  })
  .openapi('Session');

export const revoked = z.strictObject({ revoked: z.literal(true) }).openapi('Revoked');

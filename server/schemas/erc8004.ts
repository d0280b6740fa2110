import { z } from '@hono/zod-openapi';
import { addressOut, queryInt } from './common';

// ERC-8004 (docs/erc8004.md): the link, the registration file, feedback and the verifier's answer.

export const erc8004Ref = z
  .strictObject({
    agent_id: z.string().openapi({ description: 'The ERC-8004 agentId (uint256, decimal)' }),
    agent_registry: z.string().openapi({ description: 'eip155:<chainId>:<Identity registry address>' }),
  })
  .openapi('Erc8004Ref');

export const linkBody = z
  .strictObject({
    erc8004_agent_id: z
      .union([z.string().max(78), z.number().int().nonnegative()])
      .optional()
      .openapi({ description: 'A registered agentId; without it the answer is the unsigned register(agentURI) transaction' }),
    agent_registry: z.string().max(100).optional().openapi({ description: 'Defaults to the configured Identity registry' }),
  })
  .openapi('Erc8004LinkBody');

export const linkResult = z
  .strictObject({
    linked: z.boolean(),
    erc8004: erc8004Ref.nullable(),
    via: z.enum(['owner', 'agent_wallet']).optional(),
    agent_uri: z.string().nullable().optional(),
    transaction: z
      .strictObject({ chain_id: z.number().int(), from: addressOut, to: addressOut, data: z.string(), value: z.string() })
      .optional()
      .openapi({ description: 'The unsigned register(agentURI) call for the owner wallet to sign' }),
    next: z.string().optional(),
  })
  .openapi('Erc8004LinkResult');

export const registrationFile = z
  .strictObject({
    type: z.literal('https://eips.ethereum.org/EIPS/eip-8004#registration-v1'),
    name: z.string(),
    description: z.string(),
    image: z.string(),
    services: z.array(z.strictObject({ name: z.string(), endpoint: z.string(), version: z.string().optional() })),
    x402Support: z.boolean(),
    active: z.boolean(),
    registrations: z.array(z.strictObject({ agentId: z.union([z.number().int(), z.string()]), agentRegistry: z.string() })),
    supportedTrust: z.array(z.string()),
  })
  .openapi('Erc8004RegistrationFile');

const feedbackSummary = z
  .strictObject({
    count: z.number().int(),
    revoked_count: z.number().int(),
    mean_rating: z.number().nullable(),
    evidence_count: z.number().int().openapi({ description: 'Feedback from reviewers with a paid call or a completed job' }),
    evidence_mean_rating: z.number().nullable(),
    weighted_rating: z
      .number()
      .nullable()
      .openapi({ description: 'Mean of the evidence feedback weighted by each reviewer’s propagated trust' }),
  })
  .openapi('Erc8004FeedbackSummary');

export const feedbackEntry = z
  .strictObject({
    client_address: addressOut,
    feedback_index: z.number().int(),
    value: z.string().openapi({ description: 'int128, decimal; the rating is value / 10^value_decimals' }),
    value_decimals: z.number().int(),
    rating: z.number(),
    tag1: z.string(),
    tag2: z.string(),
    endpoint: z.string(),
    feedback_uri: z.string(),
    feedback_hash: z.string(),
    revoked: z.boolean(),
    evidence: z.boolean(),
    reviewer_propagated_trust: z.number().nullable(),
    block_number: z.number().int(),
    tx_hash: z.string(),
  })
  .openapi('Erc8004Feedback');

export const feedbackList = z
  .strictObject({ erc8004: erc8004Ref.nullable(), summary: feedbackSummary, feedback: z.array(feedbackEntry) })
  .openapi('Erc8004FeedbackList');

export const feedbackListQuery = z.object({ limit: queryInt(1, 200, 50) });

export const verifyParams = z.object({
  agentRegistry: z.string().min(1).max(100).openapi({ description: 'eip155:<chainId>:<address>' }),
  agentId: z.string().min(1).max(78),
});

export const verifyResult = z
  .strictObject({
    agent_registry: z.string(),
    agent_id: z.string(),
    exists: z.boolean(),
    owner: addressOut.nullable(),
    agent_wallet: addressOut.nullable(),
    agent_uri: z.string().nullable(),
    vouchsafe_agent: z
      .strictObject({
        id: z.uuid(),
        handle: z.string(),
        name: z.string(),
        owner_wallet: addressOut,
        propagated_trust_score: z.number(),
        registration_url: z.string(),
        agent_uri_points_here: z.boolean(),
      })
      .nullable(),
    onchain_summary: z
      .strictObject({ clients: z.number().int(), count: z.number().int(), mean_rating: z.number().nullable() })
      .nullable(),
    feedback: feedbackSummary,
    reasons: z.array(z.string()),
  })
  .openapi('Erc8004Verification');

export const feedbackFileQuery = z.object({
  value: z
    .string()
    .regex(/^-?\d{1,30}$/, 'must be a whole number')
    .transform(Number)
    .optional()
    .openapi({ description: 'int128 value (default 100)' }),
  value_decimals: queryInt(0, 18, 0),
  tag1: z.string().max(64).optional(),
  tag2: z.string().max(64).optional(),
});

export const feedbackFile = z
  .strictObject({
    agentRegistry: z.string(),
    agentId: z.union([z.number().int(), z.string()]),
    clientAddress: z.string(),
    createdAt: z.string(),
    value: z.number(),
    valueDecimals: z.number().int(),
    tag1: z.string().optional(),
    tag2: z.string().optional(),
    endpoint: z.string(),
    proofOfPayment: z.strictObject({
      fromAddress: addressOut,
      toAddress: addressOut,
      chainId: z.string(),
      txHash: z.null(),
      paymentRecord: z.string(),
      invocationId: z.uuid(),
      amount: z.string(),
      currency: z.literal('CLAW'),
    }),
    signature: z
      .string()
      .openapi({ description: 'Compact JWS (EdDSA; kid, jku = the router JWKS) whose payload is this file without signature' }),
  })
  .openapi('Erc8004FeedbackFile');

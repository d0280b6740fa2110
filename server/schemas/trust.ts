import { z } from '@hono/zod-openapi';
import { ATTESTATION_TYPES } from './enums';
import { addressOut, httpUrl, jsonObject, queryInt, timestamp, uuid, walletAddress, withFields } from './common';

// Trust: the score breakdown, endorsements (family A), attestations (family B), the connection
// graph and the public profile.

export { ATTESTATION_TYPES };

export const trustBreakdown = z
  .strictObject({
    total: z.number().int().min(0).max(280),
    verification: z.number().int(),
    reputation: z.number().int(),
    activity: z.number().int(),
    components: z.strictObject({
      verified: z.number().int(),
      tier: z.number().int(),
      skills: z.number().int(),
      attestations: z.number().int(),
      account_age: z.number().int(),
      connections: z.number().int(),
    }),
    formula: z.string(),
  })
  .openapi('TrustBreakdown', { description: 'The spec score (0-280) and its six components' });

export const endorsement = z
  .strictObject({
    id: z.uuid(),
    attestation_type: z.enum(ATTESTATION_TYPES),
    subject_agent_id: z.uuid(),
    attestor_wallet: addressOut,
    evidence_url: z.string().nullable(),
    stake_amount: z.number().nullable(),
    status: z.enum(['active', 'revoked']),
    created_at: timestamp,
    revoked_at: timestamp.nullable(),
  })
  .openapi('Endorsement');

export const endorsementList = z
  .strictObject({
    agent_id: z.uuid(),
    endorsements: z.array(endorsement),
    count: z.number().int().openapi({ description: 'Every active endorsement of the agent, on all pages' }),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page (newest first); null on the last page' }),
    trust_impact_formula: z.string(),
  })
  .openapi('EndorsementList');

/** GET /api/agents/{id}/endorse: keyset pages, newest first. */
export const endorsementListQuery = z.object({
  limit: queryInt(1, 200, 50),
  cursor: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: 'The `next_cursor` of the previous page; omit for the first page' }),
});

export const endorseBody = z.object({
  endorser_wallet: walletAddress,
  attestation_type: z.enum(ATTESTATION_TYPES),
  evidence_url: httpUrl.optional(),
  stake_amount: z.number().min(0).max(1e15).optional(),
  message: z.string().min(1).max(1000).openapi({ description: '`Endorse agent <id> as <attestation_type> <unix seconds>`' }),
  signature: z.string().min(1).max(10_000),
});

export const endorseResult = z
  .strictObject({
    endorsement,
    trust_impact: z.strictObject({
      points: z.number().int(),
      endorser_counts: z.boolean().openapi({
        description:
          'Whether this endorser’s endorsements count toward scores: only a wallet with a tier, CLAW received from someone else (not the welcome grant) or a paid call counts; otherwise points is 0',
      }),
      previous_trust_score: z.number().int(),
      new_trust_score: z.number().int(),
      formula: z.string(),
    }),
  })
  .openapi('EndorseResult');

export const revokeEndorsementBody = z.object({
  endorser_wallet: walletAddress,
  attestation_id: uuid,
  message: z.string().min(1).max(1000).openapi({ description: '`Revoke endorsement <attestation_id> <unix seconds>`' }),
  signature: z.string().min(1).max(10_000),
});

export const revokeEndorsementResult = z
  .strictObject({ revoked: z.literal(true), attestation_id: z.uuid(), endorsement, new_trust_score: z.number().int() })
  .openapi('RevokeEndorsementResult');

export const attestBody = z.object({
  verdict: z.enum(['positive', 'negative', 'neutral']),
  weight: z.number().int().min(1).max(10),
  note: z.string().max(280).optional(),
});

export const attestResult = z
  .strictObject({
    attested: z.literal(true),
    attestation_id: z.uuid(),
    agent_id: z.uuid(),
    new_trust_score: z.number().int(),
    verdict: z.enum(['positive', 'negative', 'neutral']),
    weight: z.number().int(),
    note: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('AttestResult');

export const graph = z
  .strictObject({
    center: z.strictObject({ wallet: addressOut, agent_ids: z.array(z.uuid()) }).nullable(),
    depth: z.number().int().nullable(),
    nodes: z.array(
      z.strictObject({
        id: z.uuid(),
        wallet_address: addressOut,
        handle: z.string(),
        name: z.string(),
        tier: z.string(),
        trust_score: z.number().int(),
        propagated_trust: z.number(),
      }),
    ),
    edges: z.array(
      z.strictObject({
        source: z.uuid(),
        target: z.uuid(),
        type: z.enum(['trust', 'collaboration', 'partnership']),
        strength: z.number().min(0).max(1),
      }),
    ),
    truncated: z.boolean(),
    limits: z.strictObject({ max_nodes: z.number().int(), max_edges: z.number().int() }),
  })
  .openapi('Graph');

export const publicProfile = z
  .strictObject({
    agent: z.strictObject({
      id: z.uuid(),
      name: z.string(),
      handle: z.string(),
      bio: z.string(),
      tier: z.string(),
      verification_status: z.enum(['verified', 'unverified']),
    }),
    trust: withFields(trustBreakdown, { propagated: z.number() }),
    attestations: z.array(
      z.strictObject({
        attestation_type: z.string(),
        verdict: z.enum(['positive', 'negative', 'neutral']).optional(),
        weight: z.number().int().optional(),
        created_at: timestamp,
      }),
    ),
    skills: z.array(z.strictObject({ name: z.string(), category: z.string(), pricing_type: z.string() })),
  })
  .openapi('PublicProfile');

/** An entry of an agent's recent activity: an event about it. */
export const activityEntry = z.strictObject({
  id: z.string(),
  event: z.string(),
  data: jsonObject,
  timestamp,
});

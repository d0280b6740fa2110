// GET/POST/DELETE /api/agents/{id}/endorse - endorsements of an agent, signed by the endorser's wallet
import { z } from '@hono/zod-openapi';
import { endpoint } from '../../http/endpoint';
import { ATTESTATION_TYPES, endorseAgent, listEndorsements, revokeEndorsement } from '../../trust/endorsements';
import { httpUrl, uuid, walletAddress } from '../schemas';

const params = z.object({ id: z.string().max(64) });

export const listEndorsementsEndpoint = endpoint({
  method: 'get',
  path: '/api/agents/{id}/endorse',
  summary: 'Active endorsements of an agent (id is a UUID or a handle)',
  tags: ['Trust'],
  auth: 'none',
  params,
  errors: { 404: 'Unknown agent' },
  handler: ({ params }) => listEndorsements(params.id),
});

export const endorseEndpoint = endpoint({
  method: 'post',
  path: '/api/agents/{id}/endorse',
  summary: 'Endorse an agent',
  description: 'The endorser signs `Endorse agent <id> as <attestation_type> <unix seconds>` (EIP-191), within 5 minutes, once.',
  tags: ['Trust'],
  auth: 'none',
  rateLimit: 'write',
  status: 201,
  params,
  body: z.object({
    endorser_wallet: walletAddress,
    attestation_type: z.enum(ATTESTATION_TYPES),
    evidence_url: httpUrl.optional(),
    stake_amount: z.number().min(0).max(1e15).optional(),
    message: z.string().min(1).max(1000),
    signature: z.string().min(1).max(10_000),
  }),
  errors: {
    400: 'Invalid fields or self-endorsement',
    401: 'Bad, stale or reused signature',
    404: 'Unknown agent',
    409: 'Already endorsed with this type',
  },
  handler: ({ params, body }) =>
    endorseAgent({
      ref: params.id,
      endorserWallet: body.endorser_wallet,
      attestationType: body.attestation_type,
      evidenceUrl: body.evidence_url,
      stakeAmount: body.stake_amount,
      message: body.message,
      signature: body.signature,
    }),
});

export const revokeEndorsementEndpoint = endpoint({
  method: 'delete',
  path: '/api/agents/{id}/endorse',
  summary: 'Revoke an endorsement (the endorser only)',
  description: 'The endorser signs `Revoke endorsement <attestation_id> <unix seconds>`.',
  tags: ['Trust'],
  auth: 'none',
  rateLimit: 'write',
  params,
  body: z.object({
    endorser_wallet: walletAddress,
    attestation_id: uuid,
    message: z.string().min(1).max(1000),
    signature: z.string().min(1).max(10_000),
  }),
  errors: { 401: 'Bad, stale or reused signature', 403: 'Not the endorser', 404: 'Unknown agent or endorsement' },
  handler: ({ params, body }) =>
    revokeEndorsement({
      ref: params.id,
      endorserWallet: body.endorser_wallet,
      attestationId: body.attestation_id,
      message: body.message,
      signature: body.signature,
    }),
});

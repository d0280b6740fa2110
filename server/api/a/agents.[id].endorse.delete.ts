// DELETE /api/agents/{id}/endorse - revoke an endorsement (the endorser only)
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { revokeEndorsementBody, revokeEndorsementResult } from '../../schemas/trust';
import { revokeEndorsement } from '../../trust/endorsements';

export default endpoint({
  method: 'delete',
  path: '/api/agents/{id}/endorse',
  summary: 'Revoke an endorsement (the endorser only)',
  description: 'The endorser signs `Revoke endorsement <attestation_id> <unix seconds>`.',
  tags: ['Trust'],
  auth: 'none',
  rateLimit: 'write',
  params: agentRef,
  body: revokeEndorsementBody,
  status: 200,
  response: revokeEndorsementResult,
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

// DELETE /api/agents/{id}/endorse - revoke an endorsement (the endorser only)
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { revokeEndorsementBody, revokeEndorsementResult } from '../../schemas/trust';
import { checkRevocation, revokeEndorsement } from '../../trust/endorsements';

export default endpoint({
  method: 'delete',
  path: '/api/agents/{id}/endorse',
  summary: 'Revoke an endorsement (the endorser only)',
  description: 'The endorser signs `Revoke endorsement <attestation_id> <unix seconds>`.',
  tags: ['Trust'],
  auth: ['signed_body'],
  signedAction: ({ body }) => `Revoke endorsement ${body.attestation_id}`,
  signer: 'endorser_wallet',
  beforeSignature: ({ params, body, wallet }) =>
    checkRevocation({ ref: params.id, endorserWallet: wallet, attestationId: body.attestation_id }),
  rateLimit: 'write',
  params: agentRef,
  body: revokeEndorsementBody,
  status: 200,
  response: revokeEndorsementResult,
  errors: { 403: 'Not the endorser', 404: 'Unknown agent or endorsement' },
  handler: ({ params, body, caller }) =>
    revokeEndorsement({ ref: params.id, endorserWallet: caller.wallet, attestationId: body.attestation_id }),
});

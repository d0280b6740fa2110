// POST /api/agents/{id}/endorse - endorse an agent, signed by the endorser's wallet
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { endorseBody, endorseResult } from '../../schemas/trust';
import { checkEndorsement, endorseActions, endorseAgent } from '../../trust/endorsements';

export default endpoint({
  method: 'post',
  path: '/api/agents/{id}/endorse',
  summary: 'Endorse an agent',
  description: 'The endorser signs `Endorse agent <id> as <attestation_type> <unix seconds>` (EIP-191), within 5 minutes, once.',
  tags: ['Trust'],
  auth: ['signed_body'],
  signedAction: ({ params, body }) => endorseActions(params.id, body.attestation_type),
  signer: 'endorser_wallet',
  beforeSignature: ({ params, body, wallet }) =>
    checkEndorsement({ ref: params.id, endorserWallet: wallet, attestationType: body.attestation_type }),
  rateLimit: 'write',
  params: agentRef,
  body: endorseBody,
  status: 201,
  response: endorseResult,
  errors: {
    403: 'The endorser has no registered agent, or its agent is younger than ENDORSER_MIN_AGE_HOURS (default 0: off)',
    404: 'Unknown agent',
    409: 'Already endorsed with this type',
  },
  handler: ({ params, body, caller }) =>
    endorseAgent({
      ref: params.id,
      endorserWallet: caller.wallet,
      attestationType: body.attestation_type,
      evidenceUrl: body.evidence_url,
      stakeAmount: body.stake_amount,
      message: body.message,
    }),
});

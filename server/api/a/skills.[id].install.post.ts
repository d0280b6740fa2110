// POST /api/skills/{id}/install - install a skill, signed by the installer's wallet
import { requireSkill } from '../../skills/skill-views';
import { endpoint, reply } from '../../http/endpoint';
import { idParam } from '../../schemas/common';
import { installBody, installResult } from '../../schemas/skill';
import { installSkill } from '../../skills/install-skill';

export default endpoint({
  method: 'post',
  path: '/api/skills/{id}/install',
  summary: 'Install a skill',
  description:
    'The installer signs `Install skill <id> <unix seconds>`. Installing twice changes nothing. Paid skills charge price_claw through the ledger (one_time/paid once per wallet, subscription per 30 days); the author gets it minus a 5% platform fee.',
  tags: ['Skills'],
  auth: ['signed_body'],
  signedAction: ({ params }) => `Install skill ${params.id.toLowerCase()}`,
  signer: 'installer_wallet',
  beforeSignature: ({ params }) => requireSkill(params.id),
  rateLimit: 'write',
  params: idParam,
  body: installBody,
  status: 201,
  response: installResult,
  errors: { 402: 'Insufficient CLAW credits', 404: 'Unknown skill' },
  handler: async ({ params, caller }) => reply(201, await installSkill({ id: params.id, installerWallet: caller.wallet })),
});

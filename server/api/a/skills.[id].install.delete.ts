// DELETE /api/skills/{id}/install - uninstall a skill, signed by the installer's wallet
import { requireSkill } from '../../skills/skill-views';
import { endpoint } from '../../http/endpoint';
import { idParam } from '../../schemas/common';
import { installBody, uninstallResult } from '../../schemas/skill';
import { uninstallSkill } from '../../skills/install-skill';

export default endpoint({
  method: 'delete',
  path: '/api/skills/{id}/install',
  summary: 'Uninstall a skill',
  description:
    'The installer signs `Uninstall skill <id> <unix seconds>`. Uninstalling what is not installed answers uninstalled: false.',
  tags: ['Skills'],
  auth: ['signed_body'],
  signedAction: ({ params }) => `Uninstall skill ${params.id.toLowerCase()}`,
  signer: 'installer_wallet',
  beforeSignature: ({ params }) => requireSkill(params.id),
  rateLimit: 'write',
  params: idParam,
  body: installBody,
  status: 200,
  response: uninstallResult,
  errors: { 404: 'Unknown skill' },
  handler: ({ params, caller }) => uninstallSkill({ id: params.id, installerWallet: caller.wallet }),
});

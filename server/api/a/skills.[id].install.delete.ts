// DELETE /api/skills/{id}/install - uninstall a skill, signed by the installer's wallet
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
  auth: 'none',
  rateLimit: 'write',
  params: idParam,
  body: installBody,
  status: 200,
  response: uninstallResult,
  errors: { 401: 'Bad, stale or reused signature', 404: 'Unknown skill' },
  handler: ({ params, body }) =>
    uninstallSkill({ id: params.id, installerWallet: body.installer_wallet, message: body.message, signature: body.signature }),
});

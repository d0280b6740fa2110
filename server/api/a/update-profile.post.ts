// POST /api/update-profile - change the caller's agent profile (family A)
import { updateProfile } from '../../agents/update-profile';
import { ApiError } from '../../core/errors';
import { presentAgentsA } from '../../directory/agent-views';
import { endpoint } from '../../http/endpoint';
import { verifySignedMessage } from '../../signatures/verify-signed-message';
import { agentA, updateProfileBody } from '../../schemas/agent';

export default endpoint({
  method: 'post',
  path: '/api/update-profile',
  summary: 'Update the caller’s agent profile',
  description:
    'Authenticate with a bearer token (scope agents.write), signature headers, or walletAddress + message + signature in the body, where the message is `Update profile <walletAddress> <unix seconds>`.',
  tags: ['Agents'],
  auth: 'optional',
  scopes: ['agents.write'],
  signedAction: ({ wallet }) => `Update profile ${wallet}`,
  rateLimit: 'write',
  body: updateProfileBody,
  status: 200,
  response: agentA,
  errors: { 404: 'The wallet has no agent' },
  async handler({ body, caller }) {
    let wallet = caller?.wallet;
    let agentId = caller?.agentId ?? null;
    if (!wallet) {
      if (!body.walletAddress || !body.message || !body.signature) {
        throw new ApiError('unauthorized', 'Send a bearer token, signature headers, or walletAddress, message and signature');
      }
      await verifySignedMessage({
        wallet: body.walletAddress,
        message: body.message,
        signature: body.signature,
        action: `Update profile ${body.walletAddress}`,
      });
      wallet = body.walletAddress;
      agentId = null;
    }
    const agent = await updateProfile(wallet, agentId, {
      name: body.name,
      bio: body.bio,
      avatarUrl: body.avatar_url,
      socialHandles: body.social_handles && {
        twitter: body.social_handles.twitter?.replace(/^@/, ''),
        discord: body.social_handles.discord,
        telegram: body.social_handles.telegram?.replace(/^@/, ''),
      },
    });
    return (await presentAgentsA([agent]))[0]!;
  },
});

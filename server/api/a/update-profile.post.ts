// POST /api/update-profile - change the caller's agent profile (family A)
import { updateProfile } from '../../agents/update-profile';
import { presentAgentsA } from '../../directory/agent-views';
import { endpoint } from '../../http/endpoint';
import { agentA, updateProfileBody } from '../../schemas/agent';

export default endpoint({
  method: 'post',
  path: '/api/update-profile',
  summary: 'Update the caller’s agent profile',
  description:
    'Authenticate with a bearer token (scope agents.write), signature headers, or walletAddress + message + signature in the body, where the message is `Update profile <walletAddress> <unix seconds>`.',
  tags: ['Agents'],
  auth: ['bearer', 'api_key', 'signature', 'signed_body'],
  scopes: ['agents.write'],
  signedAction: ({ wallet }) => `Update profile ${wallet}`,
  signer: 'walletAddress',
  rateLimit: 'write',
  body: updateProfileBody,
  status: 200,
  response: agentA,
  errors: { 404: 'The wallet has no agent' },
  async handler({ body, caller }) {
    const agent = await updateProfile(caller.wallet, caller.agentId, {
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

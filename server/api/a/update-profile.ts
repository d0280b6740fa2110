// POST /api/update-profile - change the caller's agent profile
import { z } from '@hono/zod-openapi';
import { presentAgentsA } from '../../agents/agent-views';
import { updateProfile } from '../../agents/update-profile';
import { verifySignedMessage } from '../../auth/verify-signed-message';
import { endpoint } from '../../http/endpoint';
import { ApiError } from '../../http/errors';
import { httpUrl, walletAddress } from '../schemas';

const handle = z.string().trim().max(64).nullable().optional();

export const updateProfileEndpoint = endpoint({
  method: 'post',
  path: '/api/update-profile',
  summary: 'Update the caller’s agent profile',
  description:
    'Authenticate with a bearer token, signature headers, or walletAddress + message + signature in the body, where the message is `Update profile <walletAddress> <unix seconds>`.',
  tags: ['Agents'],
  auth: 'optional',
  rateLimit: 'write',
  body: z.object({
    name: z.string().trim().min(2).max(50).optional(),
    bio: z.string().max(500).optional(),
    avatar_url: httpUrl.nullable().optional(),
    social_handles: z.object({ twitter: handle, discord: handle, telegram: handle }).optional(),
    walletAddress: walletAddress.optional(),
    message: z.string().max(1000).optional(),
    signature: z.string().max(10_000).optional(),
  }),
  errors: { 401: 'No valid authentication', 404: 'The wallet has no agent' },
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
    return (await presentAgentsA([agent]))[0];
  },
});

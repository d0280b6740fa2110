// POST /api/register-agent - register an agent identity signed by its wallet
import { z } from '@hono/zod-openapi';
import { presentAgentsA } from '../../agents/agent-views';
import { HANDLE_PATTERN } from '../../agents/handles';
import { registerAgent } from '../../agents/register-agent';
import { endpoint } from '../../http/endpoint';
import { httpUrl, walletAddress } from '../schemas';

export const registerAgentEndpoint = endpoint({
  method: 'post',
  path: '/api/register-agent',
  summary: 'Register an agent',
  description: 'The wallet signs `Register agent <agentName> <unix seconds>` (EIP-191); the timestamp must be within 5 minutes.',
  tags: ['Agents'],
  auth: 'none',
  rateLimit: 'write',
  status: 201,
  body: z.object({
    agentName: z.string().trim().min(2).max(50),
    walletAddress,
    message: z.string().min(1).max(1000),
    signature: z.string().min(1).max(10_000),
    handle: z.string().regex(HANDLE_PATTERN, 'must be 3-30 lowercase letters, digits or hyphens').optional(),
    bio: z.string().max(500).optional(),
    avatar_url: httpUrl.optional(),
  }),
  errors: {
    400: 'Invalid fields',
    401: 'Bad, stale or reused signature',
    409: 'Handle taken, or the wallet already has an agent',
  },
  async handler({ body }) {
    const agent = await registerAgent({ ...body, avatarUrl: body.avatar_url });
    return (await presentAgentsA([agent]))[0];
  },
});

// POST /api/register-agent - register an agent identity signed by its wallet
import { assertMayRegister, registerAgent } from '../../agents/register-agent';
import { presentAgentsA } from '../../directory/agent-views';
import { endpoint } from '../../http/endpoint';
import { agentA, registerAgentBody } from '../../schemas/agent';

export default endpoint({
  method: 'post',
  path: '/api/register-agent',
  summary: 'Register an agent',
  description: 'The wallet signs `Register agent <agentName> <unix seconds>` (EIP-191); the timestamp must be within 5 minutes.',
  tags: ['Agents'],
  auth: ['signed_body'],
  signedAction: ({ body }) => `Register agent ${body.agentName}`,
  signer: 'walletAddress',
  beforeSignature: ({ body, wallet }) => assertMayRegister({ walletAddress: wallet, handle: body.handle }),
  rateLimit: 'write',
  body: registerAgentBody,
  status: 201,
  response: agentA,
  errors: {
    409: 'Handle taken, or the wallet already has an agent',
  },
  async handler({ body, caller }) {
    const agent = await registerAgent({
      agentName: body.agentName,
      walletAddress: caller.wallet,
      handle: body.handle,
      bio: body.bio,
      avatarUrl: body.avatar_url,
    });
    return (await presentAgentsA([agent]))[0]!;
  },
});

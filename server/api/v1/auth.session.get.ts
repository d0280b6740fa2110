// GET /api/v1/auth/session - who the presented credential is
import { endpoint } from '../../http/endpoint';
import { session } from '../../schemas/auth';

export default endpoint({
  method: 'get',
  path: '/api/v1/auth/session',
  summary: 'Who the presented credential is: wallet, agent, scopes',
  tags: ['Auth'],
  auth: ['bearer', 'api_key'],
  status: 200,
  response: session,
  handler: async ({ caller }) => ({
    wallet_address: caller.wallet,
    agent_id: caller.agentId,
    agent_pubkey: caller.agentPubkey,
    scopes: [...caller.scopes],
    via: caller.via,
  }),
});

// POST /api/v1/agents/bootstrap - create the caller's agent when absent and pay the welcome grant
import { bootstrapAgent } from '../../agents/bootstrap-agent';
import { hasWelcomeGrant } from '../../credits/welcome-grant';
import { endpoint } from '../../http/endpoint';
import { bootstrapBody, bootstrapResult } from '../../schemas/agent';

// A call counts against the limits only while the wallet has not had its grant, however its agent
// came to exist; each wallet counts once (concurrent retries of one wallet use one slot).
const needsGrant = async ({ caller }: { caller: { wallet: `0x${string}` } | null }) =>
  caller !== null && !(await hasWelcomeGrant(caller.wallet));

export default endpoint({
  method: 'post',
  path: '/api/v1/agents/bootstrap',
  summary: 'Create the caller’s agent if absent and grant the one-time 100 CLAW welcome credit',
  description:
    'The welcome grant is paid once per wallet, ever, and to at most 3 wallets per IP (IPv6: per /64) per 24 hours: past that, 429 with Retry-After and nothing is created or granted.',
  tags: ['Agents'],
  auth: ['bearer'],
  scopes: [['agents.register', 'agents.write']],
  rateLimit: [
    { policy: 'bootstrap', when: needsGrant, member: ({ caller }) => caller!.wallet },
    { policy: 'welcome_global', when: needsGrant, member: ({ caller }) => caller!.wallet },
  ],
  body: bootstrapBody,
  status: 200,
  response: bootstrapResult,
  handler: ({ caller, body }) =>
    bootstrapAgent(caller, { agentName: body.agent_name, scopes: body.scopes, maxSpendPerDay: body.max_spend_claw_per_day }),
});

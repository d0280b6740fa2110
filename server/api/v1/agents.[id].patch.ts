// PATCH /api/v1/agents/{id} - change an agent (owner only)
import { patchAgent } from '../../agents/patch-agent';
import { presentAgentsB } from '../../directory/agent-views';
import { endpoint } from '../../http/endpoint';
import { agentB, patchAgentBody } from '../../schemas/agent';
import { agentRef } from '../../schemas/common';

export default endpoint({
  method: 'patch',
  path: '/api/v1/agents/{id}',
  summary: 'Change an agent (owner only)',
  tags: ['Agents'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  rateLimit: 'write',
  params: agentRef,
  body: patchAgentBody,
  status: 200,
  response: agentB,
  errors: { 403: 'Not the owner, or an administrator paused the agent', 404: 'Unknown agent' },
  async handler({ caller, params, body }) {
    const agent = await patchAgent(caller, params.id, {
      agentName: body.agent_name,
      bio: body.bio,
      twitterHandle: body.twitter_handle,
      discordHandle: body.discord_handle,
      telegramHandle: body.telegram_handle?.replace(/^@/, ''),
      priceClawPerCall: body.price_claw_per_call,
      maxSpendPerDay: body.max_spend_claw_per_day,
      status: body.status,
      isCallable: body.is_callable,
      invokeUrl: body.invoke_url,
      invokeSchema: body.invoke_schema,
    });
    return (await presentAgentsB([agent], { withMetrics: true, viewer: caller.wallet }))[0]!;
  },
});

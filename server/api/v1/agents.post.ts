// POST /api/v1/agents - create the caller's agent, or update it (idempotent)
import { upsertAgent } from '../../agents/upsert-agent';
import { presentAgentsB } from '../../directory/agent-views';
import { endpoint, reply } from '../../http/endpoint';
import { upsertAgentBody, upsertResult } from '../../schemas/agent';

export default endpoint({
  method: 'post',
  path: '/api/v1/agents',
  summary: 'Create the caller’s agent, or update it (idempotent)',
  description: '201 when the agent was created, 200 when an existing one was updated. Scope agents.register or agents.write.',
  tags: ['Agents'],
  auth: ['bearer'],
  scopes: [['agents.register', 'agents.write']],
  rateLimit: 'write',
  body: upsertAgentBody,
  bodyLimit: 32 * 1024,
  status: [201, 200],
  response: upsertResult,
  async handler({ caller, body }) {
    const { agent, created } = await upsertAgent(caller, {
      agentName: body.agent_name,
      scopes: body.scopes,
      maxSpendPerDay: body.max_spend_claw_per_day,
      metadata: body.metadata,
    });
    const [view] = await presentAgentsB([agent], { viewer: caller.wallet });
    return reply(created ? 201 : 200, { ...view!, already_existed: !created });
  },
});

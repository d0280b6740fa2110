// GET/POST /api/v1/agents, GET/PATCH /api/v1/agents/{id} - agent identities (family B)
import { z } from '@hono/zod-openapi';
import { presentAgentsB } from '../../agents/agent-views';
import { agentProfileB } from '../../agents/agent-profile';
import { listAgents } from '../../agents/list-agents';
import { patchAgent } from '../../agents/patch-agent';
import { upsertAgent } from '../../agents/upsert-agent';
import { isKnownScope } from '../../auth/scopes';
import { endpoint } from '../../http/endpoint';
import { clawAmount, queryBoolean, queryInt } from '../schemas';

export const listAgentsB = endpoint({
  method: 'get',
  path: '/api/v1/agents',
  summary: 'List and search agents',
  tags: ['Agents'],
  auth: 'none',
  query: z.object({
    q: z.string().max(100).optional(),
    limit: queryInt(1, 100, 50),
    offset: queryInt(0, 1_000_000, 0),
    min_trust_score: queryInt(0, 280, 0),
    with_metrics: queryBoolean.optional(),
    is_callable: queryBoolean.optional(),
  }),
  async handler({ query }) {
    const { agents, total } = await listAgents({
      search: query.q,
      isCallable: query.is_callable,
      minTrustScore: query.min_trust_score,
      limit: query.limit,
      offset: query.offset,
    });
    return {
      agents: await presentAgentsB(agents, { withMetrics: query.with_metrics }),
      total,
      limit: query.limit,
      offset: query.offset,
    };
  },
});

export const upsertAgentB = endpoint({
  method: 'post',
  path: '/api/v1/agents',
  summary: 'Create the caller’s agent, or update it (idempotent)',
  description: '201 when the agent was created, 200 when an existing one was updated.',
  tags: ['Agents'],
  auth: ['bearer'],
  rateLimit: 'write',
  body: z.object({
    agent_name: z.string().trim().min(2).max(50).optional(),
    scopes: z.array(z.string().refine(isKnownScope, 'unknown scope')).max(50).optional(),
    max_spend_claw_per_day: clawAmount.nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  bodyLimit: 32 * 1024,
  async handler({ caller, body, context }) {
    const { agent, created } = await upsertAgent(caller, {
      agentName: body.agent_name,
      scopes: body.scopes,
      maxSpendPerDay: body.max_spend_claw_per_day,
      metadata: body.metadata,
    });
    const [view] = await presentAgentsB([agent]);
    return context.json({ ...view, already_existed: !created }, created ? 201 : 200);
  },
});

export const getAgentB = endpoint({
  method: 'get',
  path: '/api/v1/agents/{id}',
  summary: 'An agent’s full profile with trust metrics and recent activity',
  tags: ['Agents'],
  auth: 'none',
  params: z.object({ id: z.string().max(64) }),
  errors: { 404: 'Unknown agent' },
  handler: ({ params }) => agentProfileB(params.id),
});

const socialHandle = z.string().trim().max(64).nullable().optional();

export const patchAgentB = endpoint({
  method: 'patch',
  path: '/api/v1/agents/{id}',
  summary: 'Change an agent (owner only)',
  tags: ['Agents'],
  auth: ['bearer'],
  rateLimit: 'write',
  params: z.object({ id: z.string().max(64) }),
  body: z.object({
    agent_name: z.string().trim().min(2).max(50).optional(),
    bio: z.string().max(500).optional(),
    twitter_handle: z
      .string()
      .trim()
      .transform((value) => value.replace(/^@/, ''))
      .pipe(z.string().regex(/^[A-Za-z0-9_]{1,15}$/, 'must be a Twitter/X handle (1-15 letters, digits or _)'))
      .nullable()
      .optional(),
    discord_handle: socialHandle,
    telegram_handle: socialHandle,
    price_claw_per_call: clawAmount.optional(),
    max_spend_claw_per_day: clawAmount.nullable().optional(),
    status: z.enum(['active', 'paused']).optional(),
    is_callable: z.boolean().optional(),
    // An empty string clears the URL, as null does.
    invoke_url: z
      .string()
      .max(2048)
      .transform((value) => value.trim() || null)
      .nullable()
      .optional(),
    invoke_schema: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
  errors: { 400: 'Invalid fields', 403: 'Not the owner', 404: 'Unknown agent' },
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
    return (await presentAgentsB([agent], { withMetrics: true }))[0];
  },
});

import { z } from 'zod';
import type { Caller } from '../core/caller';
import { ApiError, validationError } from '../core/errors';
import { clawToMicro, microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { getCredits } from '../credits/get-credits';
import { presentAgentsB } from '../directory/agent-views';
import { listAgents } from '../directory/list-agents';
import { EVENT_NAMES } from '../events/emit';
import { invokeAgent } from '../invoke/invoke-agent';
import { listJobs } from '../jobs/list-jobs';
import { postJob } from '../jobs/post-job';
import { toolInputs, type ToolName } from '../schemas/mcp';
import { listSkills } from '../skills/list-skills';
import { requireLiveAccess } from '../smart-money/access';
import { listAlerts } from '../smart-money/feed';
import { quote } from '../trade/quote';

// The nine tools, each run through the same services as the REST endpoints, with the same
// authentication and scopes. Both doors (POST {tool, input} and the Model Context Protocol) call
// runTool(), so a tool behaves the same whichever door it is called through.

export interface ToolDef<N extends ToolName = ToolName> {
  name: N;
  description: string;
  auth: 'none' | 'bearer';
  scopes: string[];
  /** False when this deployment does not have the service behind the tool yet. */
  available: boolean;
  run(input: z.output<(typeof toolInputs)[N]>, caller: Caller | null): Promise<unknown>;
}

function tool<N extends ToolName>(def: ToolDef<N>): ToolDef<N> {
  return def;
}

export const TOOLS = [
  tool({
    name: 'list_agents',
    description: 'Search agents by name or handle; filter by minimum trust score (0-280) and callability.',
    auth: 'none',
    scopes: [],
    available: true,
    async run(input) {
      const { agents, total } = await listAgents({
        search: input.q,
        isCallable: input.is_callable,
        minTrustScore: input.min_trust_score,
        limit: input.limit,
        offset: 0,
      });
      return { agents: await presentAgentsB(agents, { withMetrics: true }), total };
    },
  }),
  tool({
    name: 'invoke_agent',
    description: 'Invoke a callable agent through the router; charges its price_claw_per_call (refunded on failure).',
    auth: 'bearer',
    scopes: ['agents.invoke'],
    available: true,
    async run(input, caller) {
      const result = await invokeAgent(caller!, {
        target: input.agent_id,
        payload: input.payload ?? null,
        timeoutMs: currentRuntime().config.INVOKE_TIMEOUT_MS,
        family: 'b',
        maxFee: input.max_price_claw,
      });
      return {
        invocation_id: result.invocationId,
        status: 'success',
        target_agent: { agent_id: result.target.id, agent_name: result.target.name, handle: result.target.handle },
        fee_claw: microToClaw(result.fee),
        duration_ms: result.durationMs,
        response: result.response,
      };
    },
  }),
  tool({
    name: 'get_trade_quote',
    description: 'Quote a swap on Base (Uniswap): token_in, token_out (address or ETH), human amount_in, slippage_bps.',
    auth: 'bearer',
    scopes: [],
    available: true,
    run: (input, caller) =>
      quote({
        tokenIn: input.token_in,
        tokenOut: input.token_out,
        amountIn: input.amount_in,
        slippageBps: input.slippage_bps,
        recipient: caller!.wallet,
      }),
  }),
  tool({
    name: 'check_claw_balance',
    description: 'The caller’s CLAW balance, today’s spend and daily limit, and recent transactions.',
    auth: 'bearer',
    scopes: ['credits.read'],
    available: true,
    run: async (_input, caller) => getCredits(caller!),
  }),
  tool({
    name: 'post_job',
    description: 'Post a job with an escrowed CLAW bounty (bounty_claw is required: it moves into escrow).',
    auth: 'bearer',
    scopes: ['jobs.write'],
    available: true,
    async run(input, caller) {
      if (input.bounty_claw === undefined) {
        throw new ApiError('invalid_request', 'bounty_claw is required: a job’s bounty is escrowed when it is posted', {
          fields: { bounty_claw: 'required' },
        });
      }
      return postJob(caller!, {
        title: input.title,
        description: input.description,
        requiredSkill: input.skill_required,
        bounty: input.bounty_claw,
        expiresAt: input.deadline,
      });
    },
  }),
  tool({
    name: 'list_jobs',
    description: 'List jobs by status, minimum bounty and text.',
    auth: 'none',
    scopes: [],
    available: true,
    run(input) {
      const minBounty = input.min_bounty === undefined ? undefined : clawToMicro(input.min_bounty);
      if (minBounty === null) {
        throw new ApiError('invalid_request', 'min_bounty has more than 6 decimals', {
          fields: { min_bounty: 'at most 6 decimals' },
        });
      }
      return listJobs({ status: input.status, q: input.q, minBounty, limit: input.limit, offset: 0 });
    },
  }),
  tool({
    name: 'get_smart_money_alerts',
    description: 'Recent smart-money alerts above min_usd (needs a smart-money subscription).',
    auth: 'bearer',
    scopes: [],
    available: true,
    async run(input, caller) {
      await requireLiveAccess(caller!);
      return { alerts: await listAlerts({ minUsd: input.min_usd, limit: input.limit }), min_usd: input.min_usd };
    },
  }),
  tool({
    name: 'list_skills',
    description: 'Browse active skills in the marketplace.',
    auth: 'none',
    scopes: [],
    available: true,
    async run(input, caller) {
      return listSkills({
        q: input.q,
        category: input.category,
        pricingType: input.pricing_type,
        status: 'active',
        sort: 'newest',
        limit: input.limit,
        offset: 0,
        viewer: caller?.wallet ?? null,
      });
    },
  }),
  tool({
    name: 'stream_events',
    description:
      'How to subscribe to the real-time event stream (SSE): the URL to open with a bearer token, and the event names. A tool call cannot stream itself.',
    auth: 'none',
    scopes: [],
    available: true,
    async run(input) {
      const known = new Set<string>([...EVENT_NAMES, 'heartbeat', 'reconnect']);
      const unknown = (input.events ?? []).filter((name) => !known.has(name));
      if (unknown.length > 0) {
        throw new ApiError('invalid_request', 'Unknown event names', { fields: { events: `unknown: ${unknown.join(', ')}` } });
      }
      const url = new URL('/api/v1/stream', currentRuntime().config.PUBLIC_BASE_URL);
      if (input.events?.length) url.searchParams.set('events', input.events.join(','));
      return {
        stream_url: url.toString(),
        method: 'GET',
        auth: 'Authorization: Bearer <token> header, or the token query parameter',
        events: input.events?.length ? input.events : [...EVENT_NAMES],
        resume: 'Send Last-Event-ID on reconnect; since=<ISO timestamp> replays up to 24 h',
        heartbeat_seconds: 15,
      };
    },
  }),
] as ToolDef[];

export function findTool(name: string): ToolDef | undefined {
  return TOOLS.find((candidate) => candidate.name === name);
}

/** Checks authentication and scopes as the REST door does (401 / 403). */
function authorize(def: ToolDef, caller: Caller | null): void {
  if (def.auth === 'none') return;
  if (!caller) throw new ApiError('unauthorized', `The ${def.name} tool needs a bearer token`);
  for (const scope of def.scopes) {
    if (!caller.scopes.includes(scope)) {
      throw new ApiError('missing_scope', `Missing scope ${scope}`, { required_scope: scope, accepted_scopes: [scope] });
    }
  }
}

/** Validates the input against the tool's schema (400 naming the fields), authorizes, and runs it. */
export async function runTool(
  name: string,
  rawInput: unknown,
  caller: Caller | null,
  options: { preparsed?: boolean } = {},
): Promise<unknown> {
  const def = findTool(name);
  if (!def) throw new ApiError('not_found', `Unknown tool ${name}`, { tools: TOOLS.map((t) => t.name) });
  authorize(def, caller);
  if (options.preparsed) return def.run(rawInput as never, caller);
  const parsed = toolInputs[def.name].safeParse(rawInput ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'body');
  return def.run(parsed.data as never, caller);
}

/** GET /api/v1/mcp: the tool manifest, version 1.0. */
export function toolManifest() {
  const base = currentRuntime().config.PUBLIC_BASE_URL;
  return {
    version: '1.0' as const,
    name: 'vouchsafe',
    description:
      'Identity, trust and safety tools for autonomous agents. POST {tool, input} to the endpoint, or speak the Model Context Protocol (JSON-RPC 2.0, streamable HTTP) at the same URL.',
    endpoint: `${base}/api/v1/mcp`,
    protocols: ['vouchsafe-tools/1.0', 'mcp/streamable-http'],
    tools: TOOLS.map((def) => ({
      name: def.name,
      description: def.description,
      auth: def.auth,
      scopes: def.scopes,
      available: def.available,
      input_schema: z.toJSONSchema(toolInputs[def.name], { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    })),
  };
}

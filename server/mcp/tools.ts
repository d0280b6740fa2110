import { z } from 'zod';
import type { Caller } from '../core/caller';
import { ApiError, validationError } from '../core/errors';
import { clawToMicro, microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { presentAgentsB } from '../directory/agent-views';
import { listAgents } from '../directory/list-agents';
import { EVENT_NAMES } from '../events/emit';
import { listJobs } from '../jobs/list-jobs';
import invokeEndpoint from '../api/v1/agents.[id].invoke.post';
import creditsEndpoint from '../api/v1/credits.get';
import postJobEndpoint from '../api/v1/jobs.post';
import type { AnyEndpoint } from '../http/endpoint';
import type { Scope } from '../core/scopes';
import { authorize, callDeclared, requireScopes, scopeList, type RawInput } from '../http/policy';
import { toolInputs, type ToolName } from '../schemas/mcp';
import { listSkills } from '../skills/list-skills';
import { requireLiveAccess } from '../smart-money/access';
import { listAlerts } from '../smart-money/feed';
import { quote } from '../trade/quote';

// The nine tools, each run through the same services as the REST endpoints, with the same
// authentication and scopes. Both doors (POST {tool, input} and the Model Context Protocol) call
// runTool(), so a tool behaves the same whichever door it is called through.

/** The HTTP request a tool call came in (a JSON-RPC batch's request for each call in it) and the client's IP. */
export interface ToolCall {
  ip: string;
  request: Request;
  requestId: string;
}

export interface ToolDef<N extends ToolName = ToolName> {
  name: N;
  description: string;
  auth: 'none' | 'bearer';
  scopes: string[];
  /** False when this deployment does not have the service behind the tool yet. */
  available: boolean;
  /** The REST twin a tool built by toolFrom() runs (its policy, schemas and handler). */
  endpoint?: AnyEndpoint;
  run(input: z.output<(typeof toolInputs)[N]>, caller: Caller | null, call: ToolCall): Promise<unknown>;
}

function tool<N extends ToolName>(def: ToolDef<N>): ToolDef<N> {
  return def;
}

/**
 * A tool derived from a REST endpoint: the tool's input (the manifest's schema, checked first) mapped
 * to the endpoint's params, query and body, then the endpoint's policy (authentication kinds, scopes,
 * input schemas, body limit, rate limits) and handler, as for a REST call (server/http/policy.ts).
 * Each call, also each call inside a JSON-RPC batch, is checked and counted once.
 */
export function toolFrom<N extends ToolName>(
  name: N,
  endpoint: AnyEndpoint,
  options: { description: string; mapInput: (input: z.output<(typeof toolInputs)[N]>) => RawInput },
): ToolDef<N> {
  return {
    name,
    description: options.description,
    auth: endpoint.auth === 'none' ? 'none' : 'bearer',
    scopes: scopeList(endpoint),
    available: true,
    endpoint,
    run: (input, caller, call) => callDeclared(endpoint, { caller, source: caller?.via, raw: options.mapInput(input), ...call }),
  };
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
  toolFrom('invoke_agent', invokeEndpoint, {
    description: 'Invoke a callable agent through the router; charges its price_claw_per_call (refunded on failure).',
    mapInput: (input) => ({
      params: { id: input.agent_id },
      // REST family B takes the cap in its query (its body is the payload, forwarded as is).
      query: input.max_price_claw === undefined ? {} : { max_price_claw: microToClaw(input.max_price_claw).toString() },
      body: input.payload ?? null,
    }),
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
  toolFrom('check_claw_balance', creditsEndpoint, {
    description: 'The caller’s CLAW balance, today’s spend and daily limit, and recent transactions.',
    mapInput: () => ({}),
  }),
  toolFrom('post_job', postJobEndpoint, {
    description: 'Post a job with an escrowed CLAW bounty (bounty_claw is required: it moves into escrow).',
    mapInput: (input) => ({
      body: {
        title: input.title,
        description: input.description,
        required_skill: input.skill_required,
        bounty_claw: input.bounty_claw,
        expires_at: input.deadline,
      },
    }),
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

/** Checks authentication and scopes of a tool without a REST twin (401 / 403). */
function authorizeOwn(def: ToolDef, caller: Caller | null): void {
  if (def.auth === 'none') return;
  if (!caller) throw new ApiError('unauthorized', `The ${def.name} tool needs a bearer token`);
  requireScopes(caller, def.scopes as Scope[]);
}

/**
 * Validates the input against the tool's schema (400 naming the fields) and runs the tool: a tool with
 * a REST twin through the twin's policy, any other after its own authentication and scope check.
 */
export async function runTool(
  name: string,
  rawInput: unknown,
  caller: Caller | null,
  call: ToolCall,
  options: { preparsed?: boolean } = {},
): Promise<unknown> {
  const def = findTool(name);
  if (!def) throw new ApiError('not_found', `Unknown tool ${name}`, { tools: TOOLS.map((t) => t.name) });
  if (!def.endpoint) authorizeOwn(def, caller);
  else authorize(def.endpoint, caller, caller?.via);
  if (options.preparsed) return def.run(rawInput as never, caller, call);
  const parsed = toolInputs[def.name].safeParse(rawInput ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'body');
  return def.run(parsed.data as never, caller, call);
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

import { z, type ZodType } from 'zod';
import type { Caller } from '../core/caller';
import { ApiError, validationError } from '../core/errors';
import { clawToMicro, microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { EVENT_NAMES } from '../events/emit';
import { listJobs } from '../jobs/list-jobs';
import analyzeEndpoint from '../api/a/analyze.post';
import listAgentsEndpoint from '../api/v1/agents.get';
import invokeEndpoint from '../api/v1/agents.[id].invoke.post';
import creditsEndpoint from '../api/v1/credits.get';
import postJobEndpoint from '../api/v1/jobs.post';
import listSkillsEndpoint from '../api/v1/skills.get';
import alertsEndpoint from '../api/v1/smart-money.alerts.get';
import quoteEndpoint from '../api/v1/trade.quote.get';
import verifyAgentCardEndpoint from '../api/v1/verify.agent-card.post';
import verifyErc8004Endpoint from '../api/v1/verify.erc8004.[agentRegistry].[agentId].get';
import type { AnyEndpoint } from '../http/endpoint';
import type { Scope } from '../core/scopes';
import { authorize, callDeclared, requireScopes, scopeList, type RawInput } from '../http/policy';
import { contractAnalysis } from '../schemas/analysis';
import { jobList } from '../schemas/jobs';
import { streamEventsResult, toolInputs } from '../schemas/mcp';

// The tools, each run through the same services as the REST endpoints, with the same authentication
// and scopes. Both doors (POST {tool, input} and the Model Context Protocol) call runTool(), so a tool
// behaves the same whichever door it is called through. A tool with a REST twin is built from the
// twin's declaration by toolFrom(); adding one is one line: `toolFrom('verify_x', verifyXEndpoint)`.

/** The HTTP request a tool call came in (a JSON-RPC batch's request for each call in it) and the client's IP. */
export interface ToolCall {
  ip: string;
  request: Request;
  requestId: string;
}

/** MCP tool annotations: hints for clients (the policy is enforced whatever they say). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  auth: 'none' | 'bearer';
  scopes: string[];
  /** False when this deployment does not have the service behind the tool yet. */
  available: boolean;
  /** The tool's input (checked before the tool runs; the manifest's and MCP's inputSchema). */
  input: ZodType;
  /** The tool's answer, an object (MCP's outputSchema; structuredContent is that answer). */
  output: ZodType;
  annotations: ToolAnnotations;
  /** The REST twin a tool built by toolFrom() runs (its policy, schemas and handler). */
  endpoint?: AnyEndpoint;
  run(input: unknown, caller: Caller | null, call: ToolCall): Promise<unknown>;
}

type Shape = Record<string, ZodType>;
const shapeOf = (schema: unknown): Shape => (schema instanceof z.ZodObject ? (schema.shape as Shape) : ({} as Shape));

/** Query strings as a REST client would send them (numbers and booleans as text, absent values left out). */
export function asQuery(values: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) query[key] = String(value);
  return query;
}

/** Annotations from the HTTP method: GET reads, DELETE removes, POST with an Idempotency-Key repeats safely. */
function annotationsFor(endpoint: AnyEndpoint): ToolAnnotations {
  const method = endpoint.method;
  return {
    readOnlyHint: method === 'get',
    destructiveHint: method === 'delete',
    idempotentHint: method === 'get' || method === 'put' || method === 'delete' || Boolean(endpoint.idempotent),
    openWorldHint: false,
  };
}

/** True when a zod schema's JSON Schema is an object (MCP's outputSchema and structuredContent must be). */
function isObjectSchema(schema: ZodType): boolean {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as { type?: unknown };
  return json.type === 'object';
}

export interface ToolOptions<In> {
  /** Default: the endpoint's summary. */
  title?: string;
  /** Default: the endpoint's description, else its summary. */
  description?: string;
  /** Default: toolInputs[name] when the spec names the tool's input, else the endpoint's params, query and body fields in one object. */
  input?: ZodType;
  /** Default: the input's fields sent as the endpoint's params, query and body by the names they have there. */
  mapInput?: (input: In) => RawInput;
  /** Default: the endpoint's response schema (it must be an object). */
  output?: ZodType;
  /** Default: from the method (see annotationsFor). */
  annotations?: Partial<ToolAnnotations>;
}

/**
 * A tool derived from a REST endpoint: the tool's input (checked first) mapped to the endpoint's
 * params, query and body, then the endpoint's policy (authentication kinds, scopes, input schemas, body
 * limit, rate limits) and handler, as for a REST call (server/http/policy.ts). Each call, also each call
 * inside a JSON-RPC batch, is checked and counted once. The tool's auth, scopes, title, output schema
 * and annotations come from the endpoint unless given.
 */
export function toolFrom<N extends keyof typeof toolInputs>(
  name: N,
  endpoint: AnyEndpoint,
  options: ToolOptions<z.output<(typeof toolInputs)[N]>>,
): ToolDef;
export function toolFrom(name: string, endpoint: AnyEndpoint, options?: ToolOptions<Record<string, unknown>>): ToolDef;
export function toolFrom(name: string, endpoint: AnyEndpoint, options: ToolOptions<never> = {}): ToolDef {
  const named = (toolInputs as Record<string, ZodType>)[name];
  const parts = { params: shapeOf(endpoint.params), query: shapeOf(endpoint.query), body: shapeOf(endpoint.body) };
  const input = options.input ?? named ?? z.strictObject({ ...parts.params, ...parts.query, ...parts.body });
  const split = (value: Record<string, unknown>): RawInput => {
    const pick = (shape: Shape) => Object.fromEntries(Object.entries(value).filter(([key]) => key in shape));
    return {
      params: endpoint.params ? pick(parts.params) : undefined,
      query: endpoint.query ? asQuery(pick(parts.query)) : undefined,
      body: endpoint.body ? pick(parts.body) : undefined,
    };
  };
  const mapInput = (options.mapInput ?? split) as (value: unknown) => RawInput;
  if ('kind' in endpoint.response) throw new Error(`toolFrom(${name}): ${endpoint.path} streams; a tool cannot`);
  const output = options.output ?? (endpoint.response as ZodType);
  if (!isObjectSchema(output)) throw new Error(`toolFrom(${name}): the output must be an object schema (pass options.output)`);
  return {
    name,
    title: options.title ?? endpoint.summary,
    description: options.description ?? endpoint.description ?? endpoint.summary,
    auth: endpoint.auth === 'none' || endpoint.auth === 'optional' ? 'none' : 'bearer',
    scopes: scopeList(endpoint),
    available: true,
    input,
    output,
    annotations: { ...annotationsFor(endpoint), ...options.annotations },
    endpoint,
    run: (value, caller, call) => callDeclared(endpoint, { caller, source: caller?.via, raw: mapInput(value as never), ...call }),
  };
}

const READS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const TOOLS: ToolDef[] = [
  toolFrom('list_agents', listAgentsEndpoint, {
    title: 'List agents',
    description: 'Search agents by name or handle; filter by minimum trust score (0-280) and callability.',
    mapInput: (input) =>
      ({
        query: asQuery({
          q: input.q,
          is_callable: input.is_callable,
          min_trust_score: input.min_trust_score === undefined ? undefined : Math.ceil(input.min_trust_score),
          limit: input.limit,
          with_metrics: true,
        }),
      }) satisfies RawInput,
  }),
  toolFrom('invoke_agent', invokeEndpoint, {
    title: 'Invoke an agent',
    description: 'Invoke a callable agent through the router; charges its price_claw_per_call (refunded on failure).',
    annotations: { openWorldHint: true },
    mapInput: (input) => ({
      params: { id: input.agent_id },
      // REST family B takes the cap in its query (its body is the payload, forwarded as is).
      query: input.max_price_claw === undefined ? {} : { max_price_claw: microToClaw(input.max_price_claw).toString() },
      body: input.payload ?? null,
    }),
  }),
  toolFrom('get_trade_quote', quoteEndpoint, {
    title: 'Quote a swap',
    description: 'Quote a swap on Base (Uniswap): token_in, token_out (address or ETH), human amount_in, slippage_bps.',
    annotations: { idempotentHint: false },
    mapInput: (input) => ({
      query: asQuery({
        token_in: input.token_in,
        token_out: input.token_out,
        amount_in: input.amount_in,
        slippage_bps: input.slippage_bps,
      }),
    }),
  }),
  toolFrom('check_claw_balance', creditsEndpoint, {
    title: 'CLAW balance',
    description: 'The caller’s CLAW balance, today’s spend and daily limit, and recent transactions.',
    annotations: { idempotentHint: false },
    mapInput: () => ({}),
  }),
  toolFrom('post_job', postJobEndpoint, {
    title: 'Post a job',
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
  {
    name: 'list_jobs',
    title: 'List jobs',
    description: 'List jobs by status, minimum bounty and text.',
    auth: 'none',
    scopes: [],
    available: true,
    input: toolInputs.list_jobs,
    output: jobList,
    annotations: READS,
    run(value) {
      const input = value as z.output<typeof toolInputs.list_jobs>;
      const minBounty = input.min_bounty === undefined ? undefined : clawToMicro(input.min_bounty);
      if (minBounty === null) {
        throw new ApiError('invalid_request', 'min_bounty has more than 6 decimals', {
          fields: { min_bounty: 'at most 6 decimals' },
        });
      }
      return listJobs({ status: input.status, q: input.q, minBounty, limit: input.limit, offset: 0 });
    },
  },
  toolFrom('get_smart_money_alerts', alertsEndpoint, {
    title: 'Smart-money alerts',
    description: 'Recent smart-money alerts above min_usd (needs a smart-money subscription).',
    annotations: { idempotentHint: false },
    mapInput: (input) => ({ query: asQuery({ min_usd: input.min_usd, limit: input.limit }) }),
  }),
  toolFrom('list_skills', listSkillsEndpoint, {
    title: 'Browse skills',
    description: 'Browse active skills in the marketplace.',
    mapInput: (input) => ({
      query: asQuery({
        q: input.q,
        category: input.category,
        pricing_type: input.pricing_type,
        sort: 'newest',
        limit: input.limit,
      }),
    }),
  }),
  {
    name: 'stream_events',
    title: 'Event stream',
    description:
      'How to subscribe to the real-time event stream (SSE): the URL to open with a bearer token, and the event names. A tool call cannot stream itself.',
    auth: 'none',
    scopes: [],
    available: true,
    input: toolInputs.stream_events,
    output: streamEventsResult,
    annotations: READS,
    async run(value) {
      const input = value as z.output<typeof toolInputs.stream_events>;
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
  },
  // The full ContractAnalysis (checks, holders, creator, simulation, flags); chain and wallet_address,
  // which select the example-skill answer over REST, are not tool inputs.
  toolFrom('analyze_contract', analyzeEndpoint, {
    title: 'Analyze a token contract',
    description:
      'Safety analysis of a token contract: A-F grade, honeypot, taxes, ownership, liquidity, GoPlus-style checks (null when undecided), holders, creator, simulated buy/sell (taxes, gas, max_sell_percent) and severity flags. 5 a day per IP without a tier.',
    output: contractAnalysis,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    mapInput: (input) => ({ body: { contract_address: input.contract_address, chain_id: input.chain_id } }),
  }),
  // Portable identity (issue 24, docs/a2a.md, docs/erc8004.md): the verification endpoints as tools.
  toolFrom('verify_agent_card', verifyAgentCardEndpoint, {
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  }),
  toolFrom('verify_erc8004_identity', verifyErc8004Endpoint, {
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  }),
];

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
  return runAuthorized(def, rawInput, caller, call, options);
}

async function runAuthorized(
  def: ToolDef,
  rawInput: unknown,
  caller: Caller | null,
  call: ToolCall,
  options: { preparsed?: boolean },
): Promise<unknown> {
  if (options.preparsed) return def.run(rawInput, caller, call);
  const parsed = def.input.safeParse(rawInput ?? {});
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
      title: def.title,
      description: def.description,
      auth: def.auth,
      scopes: def.scopes,
      available: def.available,
      input_schema: toolJsonSchema(def.input, 'input'),
      output_schema: toolJsonSchema(def.output, 'output'),
      annotations: def.annotations,
    })),
  };
}

const jsonSchemas = { input: new Map<ZodType, Record<string, unknown>>(), output: new Map<ZodType, Record<string, unknown>>() };

/** A tool's input or output as JSON Schema 2020-12 (generated from the zod schema once). */
export function toolJsonSchema(schema: ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const cached = jsonSchemas[io].get(schema);
  if (cached) return cached;
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  jsonSchemas[io].set(schema, json);
  return json;
}

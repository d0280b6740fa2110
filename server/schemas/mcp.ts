import { z } from '@hono/zod-openapi';
import { clawAmount, jsonObject } from './common';
import { SKILL_CATEGORIES_B, SKILL_LIST_PRICING } from './enums';

// The tool endpoint (spec: Tool manifest tools and inputs, version 1.0). One zod schema per tool
// input: the manifest's JSON Schemas, the {tool, input} door and the Model Context Protocol door all
// come from these.

export const MCP_MANIFEST_VERSION = '1.0';

export const toolInputs = {
  list_agents: z.strictObject({
    q: z.string().max(100).optional(),
    min_trust_score: z.number().min(0).max(280).optional(),
    is_callable: z.boolean().optional(),
    limit: z.number().int().min(1).max(50).default(20),
  }),
  invoke_agent: z.strictObject({
    agent_id: z.string().min(1).max(64).describe('UUID or handle of the target agent'),
    payload: z.unknown().describe('Any JSON, forwarded to the agent'),
    max_price_claw: clawAmount.optional().describe('The most this call may pay; a higher price is refused (price_changed)'),
  }),
  get_trade_quote: z.strictObject({
    token_in: z.string().min(1).max(64),
    token_out: z.string().min(1).max(64),
    // A JSON number is accepted too (the spec names the field without a type); it is read as its decimal text.
    amount_in: z
      .union([z.string().min(1).max(80), z.number().positive()])
      .transform((value) => (typeof value === 'number' ? String(value) : value))
      .describe('Human-readable amount (a decimal string, or a JSON number)'),
    slippage_bps: z.number().int().min(0).max(5000).default(50),
  }),
  check_claw_balance: z.strictObject({}),
  post_job: z.strictObject({
    title: z.string().min(1).max(200),
    description: z.string().min(1).max(5000),
    skill_required: z.string().max(100).optional(),
    // Required, more than 0 and at most 6 decimals: POST /api/v1/jobs checks it (the tool runs that endpoint).
    bounty_claw: z.number().optional().describe('CLAW moved into escrow (required; more than 0, at most 6 decimals)'),
    deadline: z.iso.datetime({ offset: true }).optional(),
  }),
  list_jobs: z.strictObject({
    status: z.enum(['open', 'bid', 'executing', 'completed', 'all']).default('open'),
    min_bounty: z.number().min(0).optional(),
    q: z.string().max(100).optional(),
    limit: z.number().int().min(1).max(50).default(20),
  }),
  get_smart_money_alerts: z.strictObject({
    min_usd: z.number().min(0).default(10_000),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  list_skills: z.strictObject({
    q: z.string().max(100).optional(),
    category: z.enum(SKILL_CATEGORIES_B).optional(),
    pricing_type: z.enum(SKILL_LIST_PRICING).optional(),
    limit: z.number().int().min(1).max(100).default(20),
  }),
  stream_events: z.strictObject({
    events: z.array(z.string().min(1).max(64)).max(32).optional().describe('Event names; all when omitted'),
  }),
  analyze_contract: z.strictObject({
    contract_address: z.string().min(1).max(64).describe('The token contract to analyze (0x address)'),
    chain_id: z.number().int().positive().optional().describe('Must be the chain this instance serves (default Base, 8453)'),
  }),
} as const;

/** stream_events' answer: where and how to open the SSE stream. */
export const streamEventsResult = z.strictObject({
  stream_url: z.string(),
  method: z.literal('GET'),
  auth: z.string(),
  events: z.array(z.string()),
  resume: z.string(),
  heartbeat_seconds: z.number().int(),
});

/** MCP tool annotations (hints for clients; the policy is enforced regardless). */
export const toolAnnotations = z.strictObject({
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  idempotentHint: z.boolean(),
  openWorldHint: z.boolean(),
});

export type ToolName = keyof typeof toolInputs;
export const TOOL_NAMES = Object.keys(toolInputs) as ToolName[];

export const toolCallBody = z
  .object({
    tool: z.string().min(1).max(64),
    input: jsonObject.default({}),
  })
  .openapi('McpToolCall', {
    description:
      '`{tool, input}` runs one tool. A JSON-RPC 2.0 body (Model Context Protocol, streamable HTTP) is answered by the MCP server instead.',
  });

export const toolResult = z
  .strictObject({ tool: z.string(), result: z.unknown() })
  .openapi('McpToolResult', { description: 'The tool’s answer (the same body as the matching REST endpoint where one exists)' });

export const toolManifest = z
  .strictObject({
    version: z.literal(MCP_MANIFEST_VERSION),
    name: z.string(),
    description: z.string(),
    endpoint: z.string(),
    protocols: z.array(z.string()),
    tools: z.array(
      z.strictObject({
        name: z.string(),
        title: z.string(),
        description: z.string(),
        auth: z.enum(['none', 'bearer']),
        scopes: z.array(z.string()),
        available: z.boolean(),
        input_schema: jsonObject,
        output_schema: jsonObject,
        annotations: toolAnnotations,
      }),
    ),
  })
  .openapi('McpToolManifest');

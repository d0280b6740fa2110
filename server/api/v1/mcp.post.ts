// POST /api/v1/mcp - run a tool ({tool, input}) or speak the Model Context Protocol (JSON-RPC 2.0)
import { z } from '@hono/zod-openapi';
import { validationError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { handleMcpRequest, isJsonRpc } from '../../mcp/protocol';
import { runTool } from '../../mcp/tools';
import { toolCallBody, toolResult } from '../../schemas/mcp';

// Tools whose REST endpoint counts against the `write` rate limit (POST /api/v1/jobs): through this
// door too, so the tool endpoint is no way around it.
const WRITE_TOOLS = new Set(['post_job']);

function callsWriteTool(body: unknown): boolean {
  if (Array.isArray(body)) return body.some(callsWriteTool);
  if (!body || typeof body !== 'object') return false;
  const call = body as { tool?: unknown; method?: unknown; params?: { name?: unknown } };
  if (typeof call.tool === 'string') return WRITE_TOOLS.has(call.tool);
  return call.method === 'tools/call' && typeof call.params?.name === 'string' && WRITE_TOOLS.has(call.params.name);
}

export default endpoint({
  method: 'post',
  path: '/api/v1/mcp',
  summary: 'Run a tool, or speak MCP (streamable HTTP)',
  description:
    'Body `{tool, input}`: runs the tool through the same services as the REST endpoints (public tools need no token; the others a bearer token or API key with the same scopes). A JSON-RPC 2.0 body is a Model Context Protocol request (initialize, tools/list, tools/call), answered as JSON-RPC.',
  tags: ['MCP'],
  auth: 'optional',
  rateLimit: [{ policy: 'write', when: ({ body }) => callsWriteTool(body) }],
  body: z.union([toolCallBody, z.array(z.unknown()), z.object({ jsonrpc: z.literal('2.0') }).passthrough()]),
  bodyLimit: 1024 * 1024,
  status: 200,
  response: toolResult,
  errors: {
    401: 'The tool needs a bearer token',
    402: 'Insufficient CLAW credits (invoke_agent)',
    403: 'Missing scope',
    404: 'Unknown tool or agent',
    409: 'The agent’s price is above max_price_claw (invoke_agent: price_changed, nothing charged)',
    422: 'Target agent not callable',
    502: 'Target agent failed (refunded)',
    503: 'Tool not available on this deployment',
    504: 'Target agent timed out (refunded)',
  },
  async handler({ body, caller, request }) {
    if (isJsonRpc(body)) return handleMcpRequest(request, body, caller);
    const parsed = toolCallBody.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, 'body');
    return { tool: parsed.data.tool, result: await runTool(parsed.data.tool, parsed.data.input, caller) };
  },
});

// POST /api/v1/mcp - run a tool ({tool, input}) or speak the Model Context Protocol (JSON-RPC 2.0)
import { z } from '@hono/zod-openapi';
import { ApiError, validationError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { handleMcpRequest, isJsonRpc } from '../../mcp/protocol';
import { mcpChallengeHeader } from '../../mcp/resource-metadata';
import { runTool } from '../../mcp/tools';
import { toolCallBody, toolResult } from '../../schemas/mcp';

export default endpoint({
  method: 'post',
  path: '/api/v1/mcp',
  summary: 'Run a tool, or speak MCP (streamable HTTP)',
  description:
    'Body `{tool, input}`: runs the tool through the same services as the REST endpoints (public tools need no token; the others a bearer token or API key with the same scopes). A JSON-RPC 2.0 body is a Model Context Protocol request (initialize, tools/list, tools/call), answered as JSON-RPC.',
  tags: ['MCP'],
  auth: 'optional',
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
    429: 'Rate limit exceeded (Retry-After says when to retry)',
    502: 'Target agent failed (refunded)',
    503: 'Tool not available on this deployment',
    504: 'Target agent timed out (refunded)',
  },
  // Each tool call (also each call in a JSON-RPC batch) runs its REST twin's policy, rate limits included.
  async handler({ body, caller, request, ip, requestId }) {
    const call = { ip, request, requestId };
    try {
      if (isJsonRpc(body)) return await handleMcpRequest(body, caller, call);
      const parsed = toolCallBody.safeParse(body);
      if (!parsed.success) throw validationError(parsed.error, 'body');
      return { tool: parsed.data.tool, result: await runTool(parsed.data.tool, parsed.data.input, caller, call) };
    } catch (error) {
      // A 401 names the Protected Resource Metadata (RFC 9728), where a client learns how to get a token.
      if (error instanceof ApiError && error.status === 401 && !error.headers['WWW-Authenticate']) {
        throw new ApiError(error.code, error.message, error.details, { ...error.headers, ...mcpChallengeHeader() });
      }
      throw error;
    }
  },
});

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { toolInputs } from '../schemas/mcp';
import { runTool, TOOLS, type ToolCall } from './tools';

// The Model Context Protocol door: JSON-RPC 2.0 over streamable HTTP at /api/v1/mcp, stateless (no
// session ids: every POST carries its own credential, exactly like the REST door), answering with
// JSON. Each request gets its own server bound to the caller that the endpoint wrapper authenticated,
// so tools see the same Caller (token or API key, with its scopes) as the REST endpoints.

/** True when a POST body is a JSON-RPC message or batch rather than `{tool, input}`. */
export function isJsonRpc(body: unknown): boolean {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null && (first as Record<string, unknown>).jsonrpc === '2.0';
}

function buildServer(caller: Caller | null, call: ToolCall): McpServer {
  const server = new McpServer({ name: 'vouchsafe', version: '1.0.0' }, { capabilities: { tools: {} } });
  for (const def of TOOLS) {
    server.registerTool(
      def.name,
      {
        description: def.description,
        inputSchema: toolInputs[def.name],
        annotations: {
          readOnlyHint: !['invoke_agent', 'post_job'].includes(def.name),
          openWorldHint: def.name === 'invoke_agent',
        },
      },
      async (input: unknown) => {
        try {
          // The SDK validated the arguments against the same schema already.
          const result = await runTool(def.name, input, caller, call, { preparsed: true });
          const structured =
            result && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : { result };
          return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: structured };
        } catch (error) {
          if (!(error instanceof ApiError)) {
            log.error({ tool: def.name, err: error }, 'mcp tool failed');
            return {
              isError: true,
              content: [{ type: 'text' as const, text: JSON.stringify({ error: 'Internal error', code: 'internal_error' }) }],
            };
          }
          // The same error body and status the REST door would answer with.
          return {
            isError: true,
            content: [{ type: 'text' as const, text: JSON.stringify({ ...error.toBody(), status: error.status }) }],
          };
        }
      },
    );
  }
  return server;
}

/** Answers one MCP request (the body was already read and parsed by the endpoint wrapper). */
export async function handleMcpRequest(body: unknown, caller: Caller | null, call: ToolCall): Promise<Response> {
  const { request } = call;
  const server = buildServer(caller, call);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    // The wrapper has parsed the JSON body already, and answers are always JSON: a client that sends no
    // (or another) Accept or content type is served rather than refused with the transport's 406/415.
    const headers = new Headers(request.headers);
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('content-type', 'application/json');
    const normalized = new Request(request.url, { method: 'POST', headers });
    const response = await transport.handleRequest(normalized, { parsedBody: body });
    if (response.status < 400) return response;
    // A refused JSON-RPC message (a batch, a malformed request) answers in the API's one error shape,
    // with the JSON-RPC error kept in details.
    const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new ApiError('invalid_request', `MCP: ${answer?.error?.message ?? 'request refused'}`, { jsonrpc: answer });
  } finally {
    // With JSON responses the answer is complete once handleRequest returns.
    void server.close().catch(() => {});
  }
}

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { mcpChallengeHeader } from './resource-metadata';
import { findTool, runTool, TOOLS, toolJsonSchema, type ToolCall } from './tools';

// The Model Context Protocol door: JSON-RPC 2.0 over streamable HTTP at /api/v1/mcp, stateless (no
// session ids: every POST carries its own credential, exactly like the REST door), answering with
// JSON. Each request gets its own server bound to the caller that the endpoint wrapper authenticated,
// so tools see the same Caller (token or API key, with its scopes) as the REST endpoints.
// The SDK's Server negotiates the protocol version: it answers initialize with the client's version
// when it supports it (2024-10-07 up to its LATEST_PROTOCOL_VERSION), else with the newest.

/** True when a POST body is a JSON-RPC message or batch rather than `{tool, input}`. */
export function isJsonRpc(body: unknown): boolean {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null && (first as Record<string, unknown>).jsonrpc === '2.0';
}

/** A structuredContent must be an object: an answer that is not one is wrapped as {result}. */
const structured = (result: unknown): Record<string, unknown> =>
  result && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : { result };

function errorResult(body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

function buildServer(caller: Caller | null, call: ToolCall): Server {
  const server = new Server({ name: 'vouchsafe', title: 'Vouchsafe', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((def) => ({
      name: def.name,
      title: def.title,
      description: def.description,
      inputSchema: toolJsonSchema(def.input, 'input') as { type: 'object' },
      outputSchema: toolJsonSchema(def.output, 'output') as { type: 'object' },
      annotations: { title: def.title, ...def.annotations },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    try {
      const result = await runTool(name, args ?? {}, caller, call);
      // structuredContent for current clients, the same JSON as text for clients before 2025-06-18.
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: structured(result) };
    } catch (error) {
      if (!(error instanceof ApiError)) {
        log.error({ tool: name, err: error }, 'mcp tool failed');
        return errorResult({ error: 'Internal error', code: 'internal_error' });
      }
      // The same error body and status the REST door would answer with.
      return errorResult({ ...error.toBody(), status: error.status });
    }
  });
  return server;
}

/**
 * A tools/call of a tool that needs a token, sent without one, is refused with HTTP 401 and the
 * WWW-Authenticate header naming the Protected Resource Metadata, so a client discovers how to
 * authenticate (MCP authorization). initialize and tools/list need no token.
 */
function refuseAnonymousToolCalls(body: unknown, caller: Caller | null): void {
  if (caller) return;
  for (const message of Array.isArray(body) ? body : [body]) {
    const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
    const def = findTool(params.name);
    if (def?.auth === 'bearer') {
      throw new ApiError('unauthorized', `The ${def.name} tool needs a bearer token`, {}, mcpChallengeHeader());
    }
  }
}

/** Answers one MCP request (the body was already read and parsed by the endpoint wrapper). */
export async function handleMcpRequest(body: unknown, caller: Caller | null, call: ToolCall): Promise<Response> {
  refuseAnonymousToolCalls(body, caller);
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

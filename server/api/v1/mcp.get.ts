// GET /api/v1/mcp - the tool manifest (version 1.0)
import { endpoint, reply } from '../../http/endpoint';
import { toolManifest } from '../../mcp/tools';
import { toolManifest as toolManifestSchema } from '../../schemas/mcp';

export default endpoint({
  method: 'get',
  path: '/api/v1/mcp',
  summary: 'Tool manifest (version 1.0)',
  description:
    'The tools with their titles, input and output JSON Schemas (2020-12) and annotations. An MCP client asking for an event stream (Accept: text/event-stream only) gets 405: this server is stateless and answers each POST with JSON.',
  tags: ['MCP'],
  auth: 'none',
  status: 200,
  response: toolManifestSchema,
  errors: { 405: 'Standalone MCP event streams are not offered (stateless server)' },
  async handler({ request }) {
    const accept = request.headers.get('accept') ?? '';
    if (accept.includes('text/event-stream') && !accept.includes('application/json')) {
      return new Response(
        JSON.stringify({
          error: 'This MCP server is stateless; POST JSON-RPC messages instead',
          code: 'method_not_allowed',
          details: {},
        }),
        {
          status: 405,
          headers: { 'content-type': 'application/json', allow: 'GET, POST' },
        },
      );
    }
    return reply(200, toolManifest(), { 'Cache-Control': 'public, max-age=300' });
  },
});

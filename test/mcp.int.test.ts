import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { clawBalance, fund, assertLedgerBalanced } from './money';
import { startTarget } from './targets';
import { newWallet, signIn } from './wallets';
import { PLATFORM_AUTHOR_WALLET } from '../server/skills/platform-author';

let app: TestApp;
let baseUrl: string;
let target: Awaited<ReturnType<typeof startTarget>>;
let owner: { token: string; agentId: string; address: string };
let callable: string;

const TOOL_NAMES = [
  'list_agents',
  'invoke_agent',
  'get_trade_quote',
  'check_claw_balance',
  'post_job',
  'list_jobs',
  'get_smart_money_alerts',
  'list_skills',
  'stream_events',
  'analyze_contract',
  'verify_agent_card',
  'verify_erc8004_identity',
];

// Every structuredContent is checked against the tool's advertised outputSchema (JSON Schema 2020-12).
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const outputValidators = new Map<string, ReturnType<typeof ajv.compile>>();
function expectValidOutput(name: string, structured: unknown) {
  const validate = outputValidators.get(name);
  expect(validate, `no outputSchema for ${name}`).toBeDefined();
  expect(validate!(structured), `${name}: ${JSON.stringify(validate!.errors)}`).toBe(true);
}

async function session(scopes?: string[]) {
  const account = newWallet();
  const signed = await signIn(app, account, { scopes });
  const created = await app.post('/api/v1/agents', { agent_name: 'MCP user' }, { token: signed.token });
  return { token: signed.token, apiKey: signed.api_key, agentId: created.body.agent_id as string, address: account.address };
}

async function mcpClient(token?: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'vouchsafe-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/v1/mcp`), {
    requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
  });
  await client.connect(transport);
  return client;
}

const parseText = (result: any) => JSON.parse(result.content[0].text);

beforeAll(async () => {
  app = await startTestApp({ INVOKE_TIMEOUT_MS: '3000' });
  baseUrl = await app.listen();
  // The metadata URLs a 401 names are this server's (PUBLIC_BASE_URL in production).
  (app.runtime.config as { PUBLIC_BASE_URL: string }).PUBLIC_BASE_URL = baseUrl;
  target = await startTarget();
  owner = await session();
  const patched = await app.request('PATCH', `/api/v1/agents/${owner.agentId}`, {
    token: owner.token,
    body: { is_callable: true, invoke_url: `${target.url}/echo`, price_claw_per_call: 2 },
  });
  expect(patched.status).toBe(200);
  callable = owner.agentId;
});
afterAll(async () => {
  await target.close();
  await app.close();
});

describe('GET /api/v1/mcp', () => {
  it('lists the tools with titles, input and output schemas and annotations, version 1.0', async () => {
    const response = await app.get('/api/v1/mcp');
    expect(response.status).toBe(200);
    expect(response.body.version).toBe('1.0');
    expect(response.body.tools.map((t: any) => t.name)).toEqual(TOOL_NAMES);
    const listAgents = response.body.tools.find((t: any) => t.name === 'list_agents');
    expect(listAgents.input_schema.properties.limit).toMatchObject({ maximum: 50, default: 20 });
    expect(listAgents.input_schema.properties.min_trust_score).toMatchObject({ minimum: 0, maximum: 280 });
    const invoke = response.body.tools.find((t: any) => t.name === 'invoke_agent');
    expect(invoke.input_schema.required).toEqual(['agent_id', 'payload']);
    expect(invoke).toMatchObject({ auth: 'bearer', scopes: ['agents.invoke'], title: 'Invoke an agent' });
    expect(invoke.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    for (const tool of response.body.tools) {
      expect(tool.output_schema.type, tool.name).toBe('object');
      expect(tool.title.length, tool.name).toBeGreaterThan(0);
    }
  });
});

describe('POST /api/v1/mcp {tool, input}', () => {
  it('runs public tools without a token', async () => {
    const agents = await app.post('/api/v1/mcp', { tool: 'list_agents', input: { q: 'MCP', limit: 5 } });
    expect(agents.status).toBe(200);
    expect(agents.body.tool).toBe('list_agents');
    expect(agents.body.result.agents.length).toBeGreaterThan(0);
    const skills = await app.post('/api/v1/mcp', { tool: 'list_skills', input: {} });
    // A fresh instance lists the platform's five example skills.
    expect(skills.body.result.total).toBe(5);
    expect(new Set(skills.body.result.skills.map((skill: any) => skill.author_wallet))).toEqual(
      new Set([PLATFORM_AUTHOR_WALLET]),
    );
    const stream = await app.post('/api/v1/mcp', { tool: 'stream_events', input: { events: ['skill.published'] } });
    expect(stream.body.result.stream_url).toContain('/api/v1/stream?events=skill.published');
    expect((await app.post('/api/v1/mcp', { tool: 'stream_events', input: { events: ['nope'] } })).status).toBe(400);
  });

  it('needs a bearer for private tools (401) and their scopes (403); an API key works as a token does', async () => {
    const anonymousBalance = await app.post('/api/v1/mcp', { tool: 'check_claw_balance', input: {} });
    expect(anonymousBalance.status).toBe(401);
    expect(anonymousBalance.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/api/v1/mcp"`,
    );
    expect((await app.post('/api/v1/mcp', { tool: 'invoke_agent', input: { agent_id: callable, payload: {} } })).status).toBe(
      401,
    );
    const me = await session();
    await fund(me.address, 7);
    const balance = await app.post('/api/v1/mcp', { tool: 'check_claw_balance', input: {} }, { token: me.token });
    expect(balance.status).toBe(200);
    expect(balance.body.result.balance_claw).toBe(7);
    const viaKey = await app.post('/api/v1/mcp', { tool: 'check_claw_balance' }, { headers: { 'x-api-key': me.apiKey! } });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.result.balance_claw).toBe(7);
    const limited = await session(['agents.read', 'agents.register']);
    const refused = await app.post(
      '/api/v1/mcp',
      { tool: 'invoke_agent', input: { agent_id: callable, payload: {} } },
      { token: limited.token },
    );
    expect(refused.status).toBe(403);
    expect((await app.post('/api/v1/mcp', { tool: 'check_claw_balance' }, { token: limited.token })).status).toBe(403);
  });

  it('invokes through the router (charging the price), and validates input (400) and tool names (404)', async () => {
    const me = await session();
    await fund(me.address, 3);
    const invoked = await app.post(
      '/api/v1/mcp',
      { tool: 'invoke_agent', input: { agent_id: callable, payload: { q: 1 } } },
      { token: me.token },
    );
    expect(invoked.status).toBe(200);
    expect(invoked.body.result).toMatchObject({ status: 'success', fee_claw: 2, response: { echo: { q: 1 } } });
    expect(await clawBalance(me.address)).toBe(1);
    // max_price_claw under the price: 409 price_changed, nothing charged.
    const capped = await app.post(
      '/api/v1/mcp',
      { tool: 'invoke_agent', input: { agent_id: callable, payload: {}, max_price_claw: 1.5 } },
      { token: me.token },
    );
    expect(capped.status).toBe(409);
    expect(capped.body.code).toBe('price_changed');
    expect(await clawBalance(me.address)).toBe(1);
    const poor = await app.post(
      '/api/v1/mcp',
      { tool: 'invoke_agent', input: { agent_id: callable, payload: {} } },
      { token: me.token },
    );
    expect(poor.status).toBe(402);
    expect((await app.post('/api/v1/mcp', { tool: 'invoke_agent', input: { payload: {} } }, { token: me.token })).status).toBe(
      400,
    );
    expect((await app.post('/api/v1/mcp', { tool: 'list_agents', input: { limit: 51 } })).status).toBe(400);
    expect((await app.post('/api/v1/mcp', { tool: 'list_agents', input: { extra: 1 } })).status).toBe(400);
    expect((await app.post('/api/v1/mcp', { tool: 'nope', input: {} })).status).toBe(404);
    expect((await app.post('/api/v1/mcp', { input: {} })).status).toBe(400);
  });

  it('posts a job with its bounty escrowed and lists it by minimum bounty (post_job, list_jobs)', async () => {
    const me = await session();
    await fund(me.address, 10);
    const noBounty = await app.post(
      '/api/v1/mcp',
      { tool: 'post_job', input: { title: 'Do it', description: 'Now' } },
      { token: me.token },
    );
    expect(noBounty.status).toBe(400);
    expect(noBounty.body.details.fields).toHaveProperty('bounty_claw');
    const tooMuch = await app.post(
      '/api/v1/mcp',
      { tool: 'post_job', input: { title: 'Do it', description: 'Now', bounty_claw: 11 } },
      { token: me.token },
    );
    expect(tooMuch.status).toBe(402);
    expect(await clawBalance(me.address)).toBe(10);
    const posted = await app.post(
      '/api/v1/mcp',
      {
        tool: 'post_job',
        input: { title: 'Index the pool', description: 'Every swap', bounty_claw: 7, skill_required: 'indexing' },
      },
      { token: me.token },
    );
    expect(posted.status).toBe(200);
    expect(posted.body.result).toMatchObject({ bounty_claw: 7 });
    expect(await clawBalance(me.address)).toBe(3);
    const anonymous = (input: object) => app.post('/api/v1/mcp', { tool: 'list_jobs', input });
    const found = await anonymous({ q: 'Index the pool', min_bounty: 7 });
    expect(found.status).toBe(200);
    expect(found.body.result.jobs.map((job: { title: string }) => job.title)).toContain('Index the pool');
    expect((await anonymous({ q: 'Index the pool', min_bounty: 7.000001 })).body.result.jobs).toEqual([]);
    expect((await anonymous({ min_bounty: 0.0000001 })).status).toBe(400);
    expect(
      (await app.post('/api/v1/mcp', { tool: 'post_job', input: { title: 'x', description: 'y', bounty_claw: 1 } })).status,
    ).toBe(401);
  });

  it('answers for trade and smart money without a chain or a tier', async () => {
    const me = await session();
    // trade and smart money are wired: this app has no chain (503 chain_unavailable) and the caller no tier
    const quote = await app.post(
      '/api/v1/mcp',
      {
        tool: 'get_trade_quote',
        input: { token_in: 'ETH', token_out: '0x4200000000000000000000000000000000000006', amount_in: '1' },
      },
      { token: me.token },
    );
    expect(quote.body.code).toBe('chain_unavailable');
    // amount_in as a JSON number (the spec gives no type) passes validation and reaches the quote service
    const numeric = await app.post(
      '/api/v1/mcp',
      {
        tool: 'get_trade_quote',
        input: { token_in: 'ETH', token_out: '0x4200000000000000000000000000000000000006', amount_in: 0.5 },
      },
      { token: me.token },
    );
    expect(numeric.body.code).toBe('chain_unavailable');
    const alerts = await app.post('/api/v1/mcp', { tool: 'get_smart_money_alerts', input: {} }, { token: me.token });
    expect(alerts.status).toBe(403);
    expect(alerts.body.code).toBe('tier_required');
  });
});

describe('Model Context Protocol over streamable HTTP (SDK client)', () => {
  it('negotiates the newest protocol version of the SDK client, and answers older clients in theirs', async () => {
    const client = await mcpClient();
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()).toMatchObject({ name: 'vouchsafe' });
    await client.close();
    const initialize = async (protocolVersion: string) => {
      const response = await fetch(`${baseUrl}/api/v1/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion, capabilities: {}, clientInfo: { name: 'old', version: '0' } },
        }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion;
    };
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) expect(await initialize(version)).toBe(version);
    // A version the server does not know: it offers its newest.
    expect(await initialize('2023-01-01')).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('lists the same tools with titles, JSON Schema 2020-12 input and output schemas and annotations', async () => {
    const client = await mcpClient();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const listAgents = tools.find((t) => t.name === 'list_agents')!;
    expect((listAgents.inputSchema.properties as any).limit).toMatchObject({ maximum: 50 });
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.inputSchema.$schema, tool.name).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(tool.outputSchema?.$schema, tool.name).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof tool.annotations?.[hint], `${tool.name} ${hint}`).toBe('boolean');
      outputValidators.set(tool.name, ajv.compile(tool.outputSchema!));
    }
    expect(tools.find((t) => t.name === 'post_job')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(tools.find((t) => t.name === 'list_jobs')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const analyze = tools.find((t) => t.name === 'analyze_contract')!;
    for (const field of ['checks', 'holders', 'creator', 'simulation', 'flags'])
      expect(analyze.outputSchema!.properties, field).toHaveProperty(field);
    await client.close();
  });

  it('answers a token-needing tool call without a token with 401 and WWW-Authenticate; a client discovers the metadata and signs in', async () => {
    const mcpUrl = `${baseUrl}/api/v1/mcp`;
    const anonymous = await mcpClient();
    const refused = await anonymous.callTool({ name: 'check_claw_balance', arguments: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(401);
    await anonymous.close();
    // What a client does with that 401: read the header, fetch the metadata it names.
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'check_claw_balance', arguments: {} },
      }),
    });
    expect(response.status).toBe(401);
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(response);
    expect(resourceMetadataUrl?.toString()).toBe(`${baseUrl}/.well-known/oauth-protected-resource/api/v1/mcp`);
    const metadata = await discoverOAuthProtectedResourceMetadata(mcpUrl, { resourceMetadataUrl });
    expect(metadata.resource).toBe(mcpUrl);
    expect(metadata.bearer_methods_supported).toEqual(['header']);
    expect(metadata.scopes_supported).toContain('credits.read');
    const token = metadata.token_issuance as { challenge_endpoint: string; verify_endpoint: string };
    expect(token.challenge_endpoint).toBe(`${baseUrl}/api/v1/auth/challenge`);
    // The sign-in it names gives the token the retry carries.
    const me = await session();
    await fund(me.address, 4);
    const client = await mcpClient(me.token);
    const balance = await client.callTool({ name: 'check_claw_balance', arguments: {} });
    expect((balance.structuredContent as any).balance_claw).toBe(4);
    expectValidOutput('check_claw_balance', balance.structuredContent);
    await client.close();
    // The root metadata (the whole API) and the path-suffixed one are public, outside any bot check.
    const root = await app.get('/.well-known/oauth-protected-resource', { contract: false });
    expect(root.status).toBe(200);
    expect(root.body.resource).toBe(baseUrl);
    // A public tool never asks for a token.
    const publicCall = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'list_jobs', arguments: {} } }),
    });
    expect(publicCall.status).toBe(200);
  });

  it('calls every tool: public ones anonymously, private ones with the bearer, refusals as tool errors', async () => {
    const anonymous = await mcpClient();
    const agents = await anonymous.callTool({ name: 'list_agents', arguments: { limit: 3 } });
    expect(agents.isError).toBeFalsy();
    expect((agents.structuredContent as any).agents.length).toBeGreaterThan(0);
    // The text content (for clients before structuredContent) is the same JSON.
    expect(parseText(agents)).toEqual(agents.structuredContent);
    expectValidOutput('list_agents', agents.structuredContent);
    const skills = await anonymous.callTool({ name: 'list_skills', arguments: { q: 'none' } });
    expect(skills.structuredContent).toMatchObject({ skills: [], total: 0 });
    expectValidOutput('list_skills', skills.structuredContent);
    const allSkills = await anonymous.callTool({ name: 'list_skills', arguments: {} });
    expectValidOutput('list_skills', allSkills.structuredContent);
    const stream = await anonymous.callTool({ name: 'stream_events', arguments: {} });
    expect((stream.structuredContent as any).stream_url).toMatch(/\/api\/v1\/stream$/);
    expectValidOutput('stream_events', stream.structuredContent);
    const jobs = await anonymous.callTool({ name: 'list_jobs', arguments: {} });
    expect(jobs.isError).toBeFalsy();
    expect(jobs.structuredContent).toMatchObject({ jobs: expect.any(Array) });
    expectValidOutput('list_jobs', jobs.structuredContent);
    const invalid = await anonymous.callTool({ name: 'list_agents', arguments: { limit: 500 } });
    expect(invalid.isError).toBe(true);
    await anonymous.close();

    const me = await session();
    await fund(me.address, 5);
    const client = await mcpClient(me.token);
    const balance = await client.callTool({ name: 'check_claw_balance', arguments: {} });
    expect((balance.structuredContent as any).balance_claw).toBe(5);
    expectValidOutput('check_claw_balance', balance.structuredContent);
    const invoked = await client.callTool({ name: 'invoke_agent', arguments: { agent_id: callable, payload: { via: 'mcp' } } });
    expect(invoked.isError).toBeFalsy();
    expect(invoked.structuredContent).toMatchObject({ status: 'success', fee_claw: 2, response: { echo: { via: 'mcp' } } });
    expectValidOutput('invoke_agent', invoked.structuredContent);
    const posted = await client.callTool({
      name: 'post_job',
      arguments: { title: 'Via MCP', description: 'A job', bounty_claw: 1 },
    });
    expect(posted.isError).toBeFalsy();
    expectValidOutput('post_job', posted.structuredContent);
    expect(await clawBalance(me.address)).toBe(2);
    for (const [name, args, status] of [
      ['get_trade_quote', { token_in: 'ETH', token_out: '0x4200000000000000000000000000000000000006', amount_in: '1' }, 503],
      // The REST twin's query schema: a token is an address or ETH.
      ['get_trade_quote', { token_in: 'ETH', token_out: 'USDC', amount_in: '1' }, 400],
      ['post_job', { title: 'Job', description: 'Desc' }, 400],
      ['get_smart_money_alerts', {}, 403],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(parseText(result).status).toBe(status);
    }
    await client.close();

    const limited = await session(['agents.read', 'agents.register']);
    const limitedClient = await mcpClient(limited.token);
    const refused = await limitedClient.callTool({ name: 'invoke_agent', arguments: { agent_id: callable, payload: {} } });
    expect(parseText(refused)).toMatchObject({ code: 'missing_scope', status: 403 });
    await limitedClient.close();
  });

  it('accepts an API key and refuses a bad token with 401 over HTTP', async () => {
    const me = await session();
    const client = await mcpClient(undefined, { 'x-api-key': me.apiKey! });
    const balance = await client.callTool({ name: 'check_claw_balance', arguments: {} });
    expect((balance.structuredContent as any).balance_claw).toBe(0);
    await client.close();
    await expect(mcpClient('vst_not_a_real_token')).rejects.toThrow();
    const sse = await fetch(`${baseUrl}/api/v1/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(sse.status).toBe(405);
  });
});

// Regressions of the second adversarial probe (security issue): each test failed before its fix.
async function probeAgent(tier = 'none', scopes?: string[]) {
  const account = newWallet();
  const session = await signIn(app, account, scopes ? { scopes } : {});
  const created = await app.post(
    '/api/v1/agents',
    { agent_name: `Probe ${account.address.slice(2, 6)}` },
    { token: session.token },
  );
  await app.database.sql.query('UPDATE agents SET tier = $1 WHERE owner_wallet = $2', [tier, account.address]);
  return { account, token: session.token, agentId: created.body.agent_id as string };
}

describe('MCP tools keep the REST money rules', () => {
  it('post_job refuses a zero or absent bounty with 400 (REST does), never a 500', async () => {
    const me = await probeAgent();
    await fund(me.account.address, 10);
    for (const bounty of [0, 0.0000001]) {
      const response = await app.post(
        '/api/v1/mcp',
        { tool: 'post_job', input: { title: 'Free', description: 'Nothing escrowed', bounty_claw: bounty } },
        { token: me.token },
      );
      expect(response.status, response.text).toBe(400);
    }
    const rest = await app.post('/api/v1/jobs', { title: 'Free', description: 'x', bounty_claw: 0 }, { token: me.token });
    expect(rest.status).toBe(400);
    expect(await clawBalance(me.account.address)).toBe(10);
    await assertLedgerBalanced();
  });
});

// Last in the file: a second app replaces the current runtime, and closing it ends that runtime.
describe('the MCP door keeps the REST rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_WRITE: '3/1m' });
  });
  afterAll(() => limited.close());

  it('post_job counts against the write limit as POST /api/v1/jobs does, through both MCP bodies', async () => {
    const account = newWallet();
    const { token } = await signIn(limited, account);
    await fund(account.address, 100);
    const job = { title: 'Job', description: 'Work', bounty_claw: 1 };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await limited.post('/api/v1/mcp', { tool: 'post_job', input: job }, { token })).status);
    }
    const rpc = await limited.post(
      '/api/v1/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'post_job', arguments: job } },
      { token, headers: { accept: 'application/json, text/event-stream' }, contract: false },
    );
    statuses.push(rpc.status);
    statuses.push((await limited.post('/api/v1/jobs', job, { token })).status);
    // A JSON-RPC call is refused inside its answer (a tool error naming the limit), as each call of a batch is.
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(JSON.stringify(rpc.body)).toContain('rate_limited');
    // Read tools are not counted.
    expect((await limited.post('/api/v1/mcp', { tool: 'list_jobs', input: {} }, { token })).status).toBe(200);
    expect(await clawBalance(account.address)).toBe(97);
  });
});

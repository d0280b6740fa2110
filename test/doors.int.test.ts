// One declaration, three doors: every UI procedure and MCP tool with a REST twin runs the twin's
// declared policy (server/http/policy.ts). The table below lists every twin; a new mutation or tool
// fails the first test until it is listed here (as a twin, or in NOT_DERIVED with the reason), the way
// test/security.int.test.ts classifies routes. Batches over every door count each call once.
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyEndpoint } from '../server/http/endpoint';
import { ROUTES } from '../server/api/routes';
import { signedBodyOnly } from '../server/http/policy';
import { database } from '../server/core/db';
import { TOOLS } from '../server/mcp/tools';
import { serveTrpc } from '../server/trpc/serve';
import { appRouter } from '../server/trpc/router';
import { startTestApp, type TestApp } from './harness';
import { fund } from './money';
import { newWallet, signIn } from './wallets';

const WRITE_LIMIT = 4;
const IP = '127.0.0.1';
let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_WRITE: `${WRITE_LIMIT}/1m` });
  base = await app.listen();
});
afterAll(() => app.close());

interface Member {
  wallet: `0x${string}`;
  token: string;
  agentId: string;
}

async function member(options: { scopes?: string[]; claw?: number } = {}): Promise<Member> {
  const account = newWallet();
  const signed = await signIn(app, account, { scopes: options.scopes });
  const created = await app.post(
    '/api/v1/agents',
    { agent_name: `Doors ${account.address.slice(2, 8)}` },
    { token: signed.token },
  );
  if (options.claw) await fund(account.address, options.claw);
  return { wallet: account.address, token: signed.token, agentId: created.body.agent_id as string };
}

/** A REST call over real HTTP (so the client IP is the loopback address, as for the procedures below). */
async function rest(method: string, path: string, body: unknown, token?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as any };
}

const trpc = (wallet: `0x${string}` | null) => appRouter.createCaller({ wallet, isAdmin: false, clientIp: IP });

/** Calls a procedure by its dotted path; answers the REST-like status and body of a refusal. */
async function callProcedure(wallet: `0x${string}` | null, path: string, input: unknown) {
  const [group, name] = path.split('.') as [string, string];
  try {
    await (trpc(wallet) as any)[group][name](input);
    return { status: 200, fields: undefined, code: undefined };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const cause = error.cause as { status?: number; code?: string; details?: { fields?: Record<string, string> } } | undefined;
    return { status: cause?.status ?? 0, fields: cause?.details?.fields, code: cause?.code };
  }
}

async function callTool(name: string, input: unknown, token?: string) {
  const answer = await rest('POST', '/api/v1/mcp', { tool: name, input }, token);
  return { status: answer.status, fields: answer.body?.details?.fields, code: answer.body?.code };
}

interface Twin {
  door: 'trpc' | 'mcp';
  /** The procedure's dotted path or the tool's name. */
  name: string;
  /** The REST twin, `METHOD /path` as declared. */
  rest: string;
  /** A schema-valid input (the call may still be refused later, by the service): it reaches the rate limit. */
  valid: (m: Member) => unknown;
  /** An input the REST schema refuses, the field it names, and the same request over REST. */
  invalid: {
    input: (m: Member) => unknown;
    field: string;
    restField?: string;
    rest: (m: Member) => { path: string; body?: unknown };
  };
  /** MCP: the scopes of a token that lacks the twin's (it must get the REST 403). */
  narrowToken?: string[];
  /** Why the rate limit is not exercised here (the limit is still the same declaration). */
  limitCoveredElsewhere?: string;
}

const job = { title: 'Audit a vault', description: 'Look for reentrancy.', bounty_claw: 1 };

const TWINS: Twin[] = [
  {
    door: 'trpc',
    name: 'jobs.post',
    rest: 'POST /api/v1/jobs',
    valid: () => job,
    invalid: {
      input: () => ({ ...job, bounty_claw: 0 }),
      field: 'bounty_claw',
      rest: () => ({ path: '/api/v1/jobs', body: { ...job, bounty_claw: 0 } }),
    },
  },
  {
    door: 'trpc',
    name: 'jobs.bid',
    rest: 'POST /api/v1/jobs/{id}/bid',
    valid: () => ({ id: randomUUID(), bid: { bid_claw: 1, eta_seconds: 60, proposal: 'Fast and careful.' } }),
    invalid: {
      input: () => ({ id: 'not-a-uuid', bid: { bid_claw: 1, eta_seconds: 60 } }),
      field: 'id',
      rest: () => ({ path: '/api/v1/jobs/not-a-uuid/bid', body: { bid_claw: 1, eta_seconds: 60 } }),
    },
  },
  {
    door: 'trpc',
    name: 'jobs.accept',
    rest: 'POST /api/v1/jobs/{id}/accept',
    valid: () => ({ id: randomUUID(), accept: { bid_id: randomUUID() } }),
    invalid: {
      input: () => ({ id: randomUUID(), accept: { bid_id: 'x' } }),
      field: 'bid_id',
      rest: () => ({ path: `/api/v1/jobs/${randomUUID()}/accept`, body: { bid_id: 'x' } }),
    },
  },
  {
    door: 'trpc',
    name: 'jobs.submit',
    rest: 'POST /api/v1/jobs/{id}/submit',
    valid: () => ({ id: randomUUID(), submit: { result: 'done' } }),
    invalid: {
      input: () => ({ id: randomUUID(), submit: { result: null } }),
      field: 'result',
      rest: () => ({ path: `/api/v1/jobs/${randomUUID()}/submit`, body: { result: null } }),
    },
  },
  {
    door: 'trpc',
    name: 'jobs.cancel',
    rest: 'POST /api/v1/jobs/{id}/cancel',
    valid: () => ({ id: randomUUID() }),
    invalid: {
      input: () => ({ id: 'not-a-uuid' }),
      field: 'id',
      rest: () => ({ path: '/api/v1/jobs/not-a-uuid/cancel' }),
    },
  },
  {
    door: 'trpc',
    name: 'signals.publish',
    rest: 'POST /api/v1/signals',
    valid: () => ({
      title: 'ETH up',
      body: 'Because.',
      signal_type: 'long',
      asset: 'ETH',
      confidence: 50,
      stake_claw: 1,
    }),
    invalid: {
      input: () => ({
        title: 'ETH up',
        body: 'Because.',
        signal_type: 'long',
        asset: 'ETH',
        confidence: 50,
        stake_claw: 0.5,
      }),
      field: 'stake_claw',
      rest: () => ({
        path: '/api/v1/signals',
        body: {
          title: 'ETH up',
          body: 'Because.',
          signal_type: 'long',
          asset: 'ETH',
          confidence: 50,
          stake_claw: 0.5,
        },
      }),
    },
  },
  {
    door: 'trpc',
    name: 'signals.stake',
    rest: 'POST /api/v1/signals/{id}/stake',
    valid: () => ({ id: randomUUID(), stake: { stance: 'agree', amount_claw: 1 } }),
    invalid: {
      input: () => ({ id: randomUUID(), stake: { stance: 'maybe', amount_claw: 1 } }),
      field: 'stance',
      rest: () => ({ path: `/api/v1/signals/${randomUUID()}/stake`, body: { stance: 'maybe', amount_claw: 1 } }),
    },
  },
  {
    door: 'trpc',
    name: 'agents.endorse',
    rest: 'POST /api/agents/{id}/endorse',
    valid: (m) => ({ ref: m.agentId, attestationType: 'trusted', message: 'not signed', signature: '0x00' }),
    invalid: {
      input: (m) => ({ ref: m.agentId, attestationType: 'best', message: 'x', signature: '0x00' }),
      field: 'attestation_type',
      rest: (m) => ({
        path: `/api/agents/${m.agentId}/endorse`,
        body: { endorser_wallet: m.wallet, attestation_type: 'best', message: 'x', signature: '0x00' },
      }),
    },
  },
  {
    door: 'trpc',
    name: 'me.updateAgent',
    rest: 'PATCH /api/v1/agents/{id}',
    valid: (m) => ({ agentId: m.agentId, patch: { bio: 'Hello' } }),
    invalid: {
      input: (m) => ({ agentId: m.agentId, patch: { bio: 'x'.repeat(501) } }),
      field: 'bio',
      rest: (m) => ({ path: `/api/v1/agents/${m.agentId}`, body: { bio: 'x'.repeat(501) } }),
    },
  },
  {
    door: 'trpc',
    name: 'me.linkErc8004',
    rest: 'POST /api/v1/agents/{id}/erc8004/link',
    valid: (m) => ({ agentId: m.agentId }),
    invalid: {
      input: (m) => ({ agentId: m.agentId, agent_registry: 'x'.repeat(101) }),
      field: 'agent_registry',
      rest: (m) => ({ path: `/api/v1/agents/${m.agentId}/erc8004/link`, body: { agent_registry: 'x'.repeat(101) } }),
    },
  },
  {
    door: 'trpc',
    name: 'me.unlinkErc8004',
    rest: 'DELETE /api/v1/agents/{id}/erc8004/link',
    valid: (m) => ({ agentId: m.agentId }),
    invalid: {
      input: () => ({ agentId: 'x'.repeat(65) }),
      field: 'id',
      rest: () => ({ path: `/api/v1/agents/${'x'.repeat(65)}/erc8004/link` }),
    },
  },
  {
    door: 'trpc',
    name: 'me.mintApiKey',
    rest: 'POST /api/mint-api-key',
    valid: () => ({ label: 'ci' }),
    invalid: { input: () => ({ label: '' }), field: 'label', rest: () => ({ path: '/api/mint-api-key', body: { label: '' } }) },
  },
  {
    door: 'trpc',
    name: 'me.updateApiKey',
    rest: 'PATCH /api/v1/api-keys/{id}',
    valid: () => ({ keyId: randomUUID(), spend_policy: { max_claw_per_call: 1 } }),
    invalid: {
      input: () => ({ keyId: 'x', spend_policy: {} }),
      field: 'id',
      rest: () => ({ path: '/api/v1/api-keys/x', body: { spend_policy: {} } }),
    },
  },
  {
    door: 'trpc',
    name: 'me.approveSpend',
    rest: 'POST /api/v1/approvals/{id}/approve',
    valid: () => ({ id: randomUUID(), message: 'Approve spend', signature: '0x00' }),
    invalid: {
      input: () => ({ id: 'x', message: 'm', signature: '0x00' }),
      field: 'id',
      rest: () => ({ path: '/api/v1/approvals/x/approve', body: { message: 'm', signature: '0x00' } }),
    },
  },
  {
    door: 'trpc',
    name: 'me.rejectSpend',
    rest: 'POST /api/v1/approvals/{id}/reject',
    valid: () => ({ id: randomUUID(), message: 'Reject spend', signature: '0x00' }),
    invalid: {
      input: () => ({ id: 'x', message: 'm', signature: '0x00' }),
      field: 'id',
      rest: () => ({ path: '/api/v1/approvals/x/reject', body: { message: 'm', signature: '0x00' } }),
    },
  },
  {
    door: 'trpc',
    name: 'me.revokeApiKey',
    rest: 'POST /api/revoke-api-key',
    valid: () => ({ key_id: randomUUID() }),
    invalid: {
      input: () => ({ key_id: 'x' }),
      field: 'key_id',
      rest: () => ({ path: '/api/revoke-api-key', body: { key_id: 'x' } }),
    },
  },
  {
    door: 'trpc',
    name: 'me.createWebhook',
    rest: 'POST /api/v1/webhooks',
    valid: () => ({ url: 'https://127.0.0.1:9/hook', events: ['job.completed'] }),
    invalid: {
      input: () => ({ url: 'https://127.0.0.1:9/hook', events: ['no.such_event'] }),
      field: 'events.0',
      rest: () => ({ path: '/api/v1/webhooks', body: { url: 'https://127.0.0.1:9/hook', events: ['no.such_event'] } }),
    },
  },
  {
    door: 'trpc',
    name: 'me.deleteWebhook',
    rest: 'DELETE /api/v1/webhooks/{id}',
    valid: () => ({ id: randomUUID() }),
    invalid: { input: () => ({ id: 'x' }), field: 'id', rest: () => ({ path: '/api/v1/webhooks/x' }) },
  },
  {
    door: 'trpc',
    name: 'me.redeliver',
    rest: 'POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    valid: () => ({ id: randomUUID(), delivery_id: randomUUID() }),
    invalid: {
      input: () => ({ id: randomUUID(), delivery_id: 'x' }),
      field: 'delivery_id',
      rest: () => ({ path: `/api/v1/webhooks/${randomUUID()}/deliveries/x/redeliver` }),
    },
  },
  {
    door: 'trpc',
    name: 'me.deleteMemoryKey',
    rest: 'DELETE /api/v1/agents/{id}/memory/{key}',
    valid: (m) => ({ agentId: m.agentId, key: 'notes' }),
    invalid: {
      input: () => ({ agentId: 'x'.repeat(65), key: 'notes' }),
      field: 'id',
      rest: () => ({ path: `/api/v1/agents/${'x'.repeat(65)}/memory/notes` }),
    },
  },
  {
    door: 'trpc',
    name: 'skills.install',
    rest: 'POST /api/skills/{id}/install',
    valid: () => ({ id: randomUUID(), message: 'not signed', signature: '0x00' }),
    invalid: {
      input: () => ({ id: 'x', message: 'not signed', signature: '0x00' }),
      field: 'id',
      rest: (m) => ({
        path: '/api/skills/x/install',
        body: { installer_wallet: m.wallet, message: 'not signed', signature: '0x00' },
      }),
    },
  },
  {
    door: 'trpc',
    name: 'skills.publish',
    rest: 'POST /api/skills',
    valid: () => ({ name: 'Helper', description: 'Helps.', category: 'automation' }),
    invalid: {
      input: () => ({ name: 'Helper', description: 'Helps.', category: 'cooking' }),
      field: 'category',
      rest: () => ({ path: '/api/skills', body: { name: 'Helper', description: 'Helps.', category: 'cooking' } }),
    },
  },
  {
    door: 'trpc',
    name: 'analyzer.analyze',
    rest: 'POST /api/analyze',
    valid: () => ({ contract_address: newWallet().address }),
    invalid: {
      input: () => ({ contract_address: '0x12' }),
      field: 'contract_address',
      rest: () => ({ path: '/api/analyze', body: { contract_address: '0x12' } }),
    },
    limitCoveredElsewhere: 'analyze_free counts only free analyses on a chain: test/ui-skills-analyzer.int.test.ts',
  },
  {
    door: 'trpc',
    name: 'jobs.get',
    rest: 'GET /api/v1/jobs/{id}',
    valid: () => ({ id: randomUUID() }),
    invalid: { input: () => ({ id: 'x' }), field: 'id', rest: () => ({ path: '/api/v1/jobs/x' }) },
  },
  {
    door: 'trpc',
    name: 'signals.get',
    rest: 'GET /api/v1/signals/{id}',
    valid: () => ({ id: randomUUID() }),
    invalid: { input: () => ({ id: 'x' }), field: 'id', rest: () => ({ path: '/api/v1/signals/x' }) },
  },
  {
    door: 'mcp',
    name: 'post_job',
    rest: 'POST /api/v1/jobs',
    valid: () => job,
    invalid: {
      input: () => ({ ...job, bounty_claw: 0 }),
      field: 'bounty_claw',
      rest: () => ({ path: '/api/v1/jobs', body: { ...job, bounty_claw: 0 } }),
    },
    narrowToken: ['credits.read'],
  },
  {
    door: 'mcp',
    name: 'invoke_agent',
    rest: 'POST /api/v1/agents/{id}/invoke',
    valid: () => ({ agent_id: randomUUID(), payload: {} }),
    // The tool's own schema names its field agent_id; the REST twin names the same value id.
    invalid: {
      input: () => ({ agent_id: 'x'.repeat(65), payload: {} }),
      field: 'agent_id',
      restField: 'id',
      rest: () => ({ path: `/api/v1/agents/${'x'.repeat(65)}/invoke`, body: {} }),
    },
    narrowToken: ['credits.read'],
  },
  {
    door: 'mcp',
    name: 'check_claw_balance',
    rest: 'GET /api/v1/credits',
    valid: () => ({}),
    invalid: { input: () => ({ extra: 1 }), field: 'body', rest: () => ({ path: '/api/v1/credits?unused=1' }) },
    narrowToken: ['jobs.write'],
  },
  {
    door: 'mcp',
    name: 'list_agents',
    rest: 'GET /api/v1/agents',
    valid: () => ({ q: 'Doors' }),
    invalid: { input: () => ({ limit: 0 }), field: 'limit', rest: () => ({ path: '/api/v1/agents?limit=0' }) },
  },
  {
    door: 'mcp',
    name: 'get_trade_quote',
    rest: 'GET /api/v1/trade/quote',
    valid: () => ({ token_in: 'ETH', token_out: '0x4200000000000000000000000000000000000006', amount_in: '1' }),
    // The tool's schema takes any token text; the REST query (which the tool runs) takes an address or ETH.
    invalid: {
      input: () => ({ token_in: 'ETH', token_out: 'USDC', amount_in: '1' }),
      field: 'token_out',
      rest: () => ({ path: '/api/v1/trade/quote?token_in=ETH&token_out=USDC&amount_in=1' }),
    },
  },
  {
    door: 'mcp',
    name: 'get_smart_money_alerts',
    rest: 'GET /api/v1/smart-money/alerts',
    valid: () => ({}),
    invalid: {
      input: () => ({ min_usd: -1 }),
      field: 'min_usd',
      rest: () => ({ path: '/api/v1/smart-money/alerts?min_usd=-1' }),
    },
  },
  {
    door: 'mcp',
    name: 'list_skills',
    rest: 'GET /api/v1/skills',
    valid: () => ({}),
    invalid: {
      input: () => ({ category: 'cooking' }),
      field: 'category',
      rest: () => ({ path: '/api/v1/skills?category=cooking' }),
    },
  },
  {
    door: 'mcp',
    name: 'analyze_contract',
    rest: 'POST /api/analyze',
    valid: () => ({ contract_address: newWallet().address }),
    // The tool's schema takes any short text; the REST body (which the tool runs) a 0x address.
    invalid: {
      input: () => ({ contract_address: '0x12' }),
      field: 'contract_address',
      rest: () => ({ path: '/api/analyze', body: { contract_address: '0x12' } }),
    },
  },
  {
    door: 'mcp',
    name: 'verify_agent_card',
    rest: 'POST /api/v1/verify/agent-card',
    valid: () => ({ card: { name: 'Not signed' } }),
    invalid: {
      input: () => ({ url: 'ftp://example.com/card.json' }),
      field: 'url',
      rest: () => ({ path: '/api/v1/verify/agent-card', body: { url: 'ftp://example.com/card.json' } }),
    },
  },
  {
    door: 'mcp',
    name: 'verify_erc8004_identity',
    rest: 'GET /api/v1/verify/erc8004/{agentRegistry}/{agentId}',
    valid: () => ({ agentRegistry: 'eip155:8453:0x8004A169FB4a3325136EB29fA0ceB6D2e539a432', agentId: '1' }),
    invalid: {
      input: () => ({ agentRegistry: 'x'.repeat(101), agentId: '1' }),
      field: 'agentRegistry',
      rest: () => ({ path: `/api/v1/verify/erc8004/${'x'.repeat(101)}/1` }),
    },
  },
];

/** Mutations and tools not built from an endpoint, with the reason (docs/architecture.md repeats the list). */
const NOT_DERIVED: Record<string, string> = {
  'trpc:auth.challenge':
    'web sign-in (SIWE for the session cookie); no REST twin, counted on the REST challenge’s per-IP `auth` limit',
  'trpc:admin.pauseAgent': 'admin console only; no REST twin',
  'trpc:admin.unpauseAgent': 'admin console only; no REST twin',
  'trpc:admin.resolveSignal': 'admin console only; no REST twin',
  'trpc:admin.hideSkill': 'admin console only; no REST twin',
  'trpc:admin.unhideSkill': 'admin console only; no REST twin',
  'trpc:admin.approveSkill': 'admin console only; no REST twin',
  'trpc:admin.rejectSkill': 'admin console only; no REST twin',
  'trpc:admin.redeliver': 'admin console only; no REST twin',
  'mcp:list_jobs': 'the spec’s min_bounty filter has no GET /api/v1/jobs query parameter (and the tool has no skill filter)',
  'mcp:stream_events': 'no REST twin (describes the SSE stream)',
};

const endpointFor = (rest: string): AnyEndpoint => {
  const [method, path] = rest.split(' ');
  const found = ROUTES.find((route) => route.method === method!.toLowerCase() && route.path === path);
  if (!found) throw new Error(`no REST endpoint ${rest}`);
  return found;
};

function derivedTwins(): Map<string, AnyEndpoint | undefined> {
  const out = new Map<string, AnyEndpoint | undefined>();
  const procedures = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { type: string; meta?: { endpoint?: AnyEndpoint } } }
  >;
  for (const [path, procedure] of Object.entries(procedures)) {
    if (procedure._def.type === 'mutation' || procedure._def.meta?.endpoint)
      out.set(`trpc:${path}`, procedure._def.meta?.endpoint);
  }
  for (const tool of TOOLS) out.set(`mcp:${tool.name}`, tool.endpoint);
  return out;
}

describe('every procedure and tool with a REST twin runs the twin’s declaration', () => {
  it('lists every mutation and tool: derived twins in TWINS, the others in NOT_DERIVED with a reason', () => {
    const listed = new Set(TWINS.map((twin) => `${twin.door}:${twin.name}`));
    for (const [key, endpoint] of derivedTwins()) {
      if (endpoint) expect(listed.has(key), `${key} is derived from an endpoint: add it to TWINS`).toBe(true);
      else
        expect(
          NOT_DERIVED[key],
          `${key} is not derived from an endpoint: derive it, or give the reason in NOT_DERIVED`,
        ).toBeTruthy();
    }
    for (const twin of TWINS) {
      const derived = derivedTwins().get(`${twin.door}:${twin.name}`);
      // The very declaration the REST route mounts: the same scopes, rate limits, schemas and handler.
      expect(derived, `${twin.door}:${twin.name}`).toBe(endpointFor(twin.rest));
    }
  });

  it.each(TWINS.map((twin) => [`${twin.door}:${twin.name}`, twin] as const))(
    '%s refuses input as its REST twin does',
    async (_key, twin) => {
      const m = await member({ claw: 10 });
      const viaTwin =
        twin.door === 'trpc'
          ? await callProcedure(m.wallet, twin.name, twin.invalid.input(m))
          : await callTool(twin.name, twin.invalid.input(m), m.token);
      expect(viaTwin.status).toBe(400);
      expect(Object.keys(viaTwin.fields ?? {})).toContain(twin.invalid.field);
      const endpoint = endpointFor(twin.rest);
      const request = twin.invalid.rest(m);
      if (endpoint.method === 'get' && request.path.includes('unused')) return; // a GET without a query ignores it
      const viaRest = await rest(endpoint.method.toUpperCase(), request.path, request.body, m.token);
      expect(viaRest.status).toBe(400);
      expect(Object.keys(viaRest.body.details.fields)).toContain(twin.invalid.restField ?? twin.invalid.field);
    },
  );

  it.each(TWINS.filter((twin) => twin.narrowToken).map((twin) => [twin.name, twin] as const))(
    'mcp:%s asks a token or API key for the REST twin’s scopes',
    async (_name, twin) => {
      const narrow = await member({ scopes: twin.narrowToken });
      const m = await member();
      const answer = await callTool(twin.name, twin.valid(m), narrow.token);
      expect(answer).toMatchObject({ status: 403, code: 'missing_scope' });
    },
  );

  it.each(
    TWINS.filter((twin) => endpointFor(twin.rest).rateLimit === 'write' && !twin.limitCoveredElsewhere).map(
      (twin) => [`${twin.door}:${twin.name}`, twin] as const,
    ),
  )('%s spends the same write budget, on the same subject, as REST', async (_key, twin) => {
    const m = await member({ claw: 10 });
    const endpoint = endpointFor(twin.rest);
    // Public signed endpoints count per IP (this file's one client): each row starts from a fresh window.
    if (signedBodyOnly(endpoint))
      await database().sql.query('DELETE FROM rate_limit_counters WHERE key = $1', [`write:ip:${IP}`]);
    // Spend the budget over REST (per caller for authenticated endpoints, per IP for the public signed
    // ones) until REST refuses; then the twin is refused too.
    let spent = 0;
    for (; spent <= WRITE_LIMIT; spent++) {
      const spending = signedBodyOnly(endpoint)
        ? await rest('POST', `/api/agents/${m.agentId}/endorse`, {
            endorser_wallet: m.wallet,
            attestation_type: 'trusted',
            message: 'not signed',
            signature: '0x00',
          })
        : await rest('PATCH', `/api/v1/agents/${m.agentId}`, {}, m.token);
      if (spending.status === 429) break;
    }
    expect(spent).toBeLessThanOrEqual(WRITE_LIMIT);
    const answer =
      twin.door === 'trpc'
        ? await callProcedure(m.wallet, twin.name, twin.valid(m))
        : await callTool(twin.name, twin.valid(m), m.token);
    expect(answer, JSON.stringify(answer)).toMatchObject({ status: 429, code: 'rate_limited' });
  });
});

/** A real tRPC HTTP request from the UI's origin (the session as a signed-in page would have it). */
function trpcRequest(paths: string[], body: unknown, headers: Record<string, string> = {}) {
  const origin = new URL(app.runtime.config.PUBLIC_BASE_URL).origin;
  return new Request(`${origin}/api/trpc/${paths.join(',')}?batch=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin', ...headers },
    body: JSON.stringify(body),
  });
}

async function jobsPostedBy(wallet: string): Promise<number> {
  const [row] = await database().sql.query<{ n: number | string }>(
    'SELECT count(*)::int AS n FROM jobs WHERE lower(poster_wallet) = lower($1)',
    [wallet],
  );
  return Number(row!.n);
}

describe('one write budget across doors and batches', () => {
  const BATCH = 200;
  const jobs = (n: number) => Array.from({ length: n }, (_, i) => ({ ...job, title: `Batch job ${i}` }));

  it('a tRPC batch of 200 jobs.post creates at most the write limit, each call counted once', async () => {
    const m = await member({ claw: 1_000 });
    const body = Object.fromEntries(jobs(BATCH).map((input, i) => [String(i), input]));
    const response = await serveTrpc(trpcRequest(Array(BATCH).fill('jobs.post'), body), {
      wallet: m.wallet,
      isAdmin: false,
      clientIp: IP,
    });
    const answers = (await response.json()) as { result?: unknown; error?: { json?: unknown; data?: { apiCode?: string } } }[];
    expect(answers).toHaveLength(BATCH);
    const limited = answers.filter((answer) => answer.error?.data?.apiCode === 'rate_limited').length;
    const created = await jobsPostedBy(m.wallet);
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThanOrEqual(WRITE_LIMIT);
    expect(created + limited).toBe(BATCH);
  });

  async function mcpBatch(token: string, size: number) {
    const batch = jobs(size).map((input, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'post_job', arguments: input },
    }));
    const response = await fetch(`${base}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(batch),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('a JSON-RPC batch of post_job calls creates at most the write limit, each call counted once', async () => {
    const m = await member({ claw: 1_000 });
    // The MCP transport serves batches of up to 100 messages: 200 is refused whole, creating nothing.
    const tooLarge = await mcpBatch(m.token, BATCH);
    expect(tooLarge.status).toBe(400);
    expect(await jobsPostedBy(m.wallet)).toBe(0);
    const served = await mcpBatch(m.token, 100);
    expect(served.status).toBe(200);
    const answers = served.body as { result?: { isError?: boolean; content: { text: string }[] } }[];
    expect(answers).toHaveLength(100);
    const limited = answers.filter((answer) => answer.result?.isError && answer.result.content[0]!.text.includes('"status":429'));
    const created = await jobsPostedBy(m.wallet);
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThanOrEqual(WRITE_LIMIT);
    expect(created + limited.length).toBe(100);
  });

  it('200 parallel POST /api/v1/jobs create at most the write limit', async () => {
    const m = await member({ claw: 1_000 });
    const answers = await Promise.all(jobs(BATCH).map((input) => rest('POST', '/api/v1/jobs', input, m.token)));
    const created = await jobsPostedBy(m.wallet);
    expect(created).toBeLessThanOrEqual(WRITE_LIMIT);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(created);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(BATCH - created);
  });
});

describe('tRPC mutations come from this site only', () => {
  const post = (headers: Record<string, string>, body = JSON.stringify({ 0: { label: 'csrf' } })) => {
    const origin = new URL(app.runtime.config.PUBLIC_BASE_URL).origin;
    return new Request(`${origin}/api/trpc/me.mintApiKey?batch=1`, { method: 'POST', headers, body });
  };

  async function keysOf(wallet: string): Promise<number> {
    const [row] = await database().sql.query<{ n: number | string }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE lower(wallet) = lower($1)',
      [wallet],
    );
    return Number(row!.n);
  }

  it('refuses another origin, a cross-site fetch, a form or multipart body, and a POST without Origin', async () => {
    const m = await member();
    const session = { wallet: m.wallet, isAdmin: false, clientIp: IP };
    const before = await keysOf(m.wallet);
    const own = new URL(app.runtime.config.PUBLIC_BASE_URL).origin;
    const refused: [string, Record<string, string>, string?][] = [
      ['another origin', { 'content-type': 'application/json', origin: 'https://evil.example' }],
      ['a cross-site fetch', { 'content-type': 'application/json', origin: own, 'sec-fetch-site': 'cross-site' }],
      ['a same-site (sibling subdomain) fetch', { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }],
      ['no Origin or Sec-Fetch-Site', { 'content-type': 'application/json' }],
      ['a form body', { 'content-type': 'application/x-www-form-urlencoded', origin: own }, '0=%7B%7D'],
      ['a multipart body', { 'content-type': 'multipart/form-data; boundary=x', origin: own }, '--x--'],
      ['a text/plain body', { 'content-type': 'text/plain', origin: own }],
    ];
    for (const [name, headers, body] of refused) {
      const response = await serveTrpc(post(headers, body), session);
      expect([403, 415], name).toContain(response.status);
      expect((await response.json()).code, name).toMatch(/^(forbidden|unsupported_media_type)$/);
    }
    expect(await keysOf(m.wallet)).toBe(before);
    const accepted = await serveTrpc(
      post({ 'content-type': 'application/json; charset=utf-8', origin: own, 'sec-fetch-site': 'same-origin' }),
      session,
    );
    expect(accepted.status).toBe(200);
    expect(await keysOf(m.wallet)).toBe(before + 1);
  });

  it('serves queries (GET) without the check', async () => {
    const origin = new URL(app.runtime.config.PUBLIC_BASE_URL).origin;
    const response = await serveTrpc(new Request(`${origin}/api/trpc/auth.session`), {
      wallet: null,
      isAdmin: false,
      clientIp: IP,
    });
    expect(response.status).toBe(200);
  });
});

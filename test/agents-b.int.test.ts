import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ALLOW_PRIVATE_URLS: 'false' });
});
afterAll(() => app.close());

async function agentFor(name = `Bot ${Math.random().toString(36).slice(2, 7)}`) {
  const account = newWallet();
  const session = await signIn(app, account);
  const created = await app.post('/api/v1/agents', { agent_name: name, metadata: { model: 'x' } }, { token: session.token });
  return { account, token: session.token, agent: created.body, status: created.status };
}

describe('POST /api/v1/agents', () => {
  it('creates the caller’s agent (201), and a repeat call updates it (200)', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account, { maxSpend: 25 });
    const created = await app.post('/api/v1/agents', { agent_name: 'Idem', scopes: ['agents.invoke'] }, { token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      agent_name: 'Idem',
      owner_wallet: account.address,
      scopes: ['agents.invoke'],
      status: 'active',
      already_existed: false,
      max_spend_claw_per_day: 25,
    });
    const again = await app.post('/api/v1/agents', { agent_name: 'Idem 2' }, { token });
    expect(again.status).toBe(200);
    expect(again.body.agent_id).toBe(created.body.agent_id);
    expect(again.body.agent_name).toBe('Idem 2');
    expect(again.body.already_existed).toBe(true);
  });

  it('creates one agent under concurrent repeats', async () => {
    const { token } = await signIn(app, newWallet());
    const results = await Promise.all(
      Array.from({ length: 8 }, () => app.post('/api/v1/agents', { agent_name: 'Racer' }, { token })),
    );
    expect(new Set(results.map((r) => r.body.agent_id)).size).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it('requires a bearer token', async () => {
    expect((await app.post('/api/v1/agents', { agent_name: 'Nope' })).status).toBe(401);
  });

  it('is what verify returns as agent next time', async () => {
    const account = newWallet();
    const first = await signIn(app, account, { agentPubkey: 'pk-x' });
    const created = await app.post('/api/v1/agents', { agent_name: 'Later' }, { token: first.token });
    const second = await signIn(app, account, { agentPubkey: 'pk-x' });
    expect(second.agent.agent_id).toBe(created.body.agent_id);
  });
});

describe('GET /api/v1/agents', () => {
  it('lists with q, limit 1-100, offset, is_callable and with_metrics', async () => {
    const marker = `qb${Date.now().toString(36)}`;
    const a = await agentFor(`${marker} one`);
    await agentFor(`${marker} two`);
    await app.request('PATCH', `/api/v1/agents/${a.agent.agent_id}`, {
      token: a.token,
      body: { is_callable: true, invoke_url: 'https://agent.example/invoke' },
    });
    const all = await app.get(`/api/v1/agents?q=${marker}`);
    expect(all.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    const callable = await app.get(`/api/v1/agents?q=${marker}&is_callable=true&with_metrics=true`);
    expect(callable.body.agents.map((x: any) => x.agent_id)).toEqual([a.agent.agent_id]);
    expect(callable.body.agents[0]).toHaveProperty('endorsement_count');
    expect((await app.get('/api/v1/agents?limit=100')).status).toBe(200);
    expect((await app.get('/api/v1/agents?limit=101')).status).toBe(400);
    expect((await app.get('/api/v1/agents?is_callable=maybe')).status).toBe(400);
  });
});

describe('GET /api/v1/agents/{id}', () => {
  it('returns the full profile with trust metrics and recent activity', async () => {
    const { agent } = await agentFor();
    const response = await app.get(`/api/v1/agents/${agent.agent_id}`);
    expect(response.status).toBe(200);
    expect(response.body.trust).toMatchObject({ total: expect.any(Number), verification: 0, formula: expect.any(String) });
    expect(response.body.recent_activity[0]).toMatchObject({ event: 'agent.registered' });
    expect((await app.get(`/api/v1/agents/${agent.handle}`)).body.agent_id).toBe(agent.agent_id);
    expect((await app.get(`/api/v1/agents/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe('PATCH /api/v1/agents/{id}', () => {
  it('changes every field for the owner', async () => {
    const { agent, token } = await agentFor();
    const response = await app.request('PATCH', `/api/v1/agents/${agent.agent_id}`, {
      token,
      body: {
        agent_name: 'Patched',
        bio: 'b'.repeat(500),
        twitter_handle: '@patched_bot',
        discord_handle: 'patched#1',
        telegram_handle: '@patchedbot',
        price_claw_per_call: 1.5,
        max_spend_claw_per_day: 100,
        status: 'paused',
        is_callable: true,
        invoke_url: 'https://agent.example/hook',
        invoke_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      agent_name: 'Patched',
      twitter_handle: 'patched_bot',
      telegram_handle: 'patchedbot',
      price_claw_per_call: 1.5,
      max_spend_claw_per_day: 100,
      status: 'paused',
      is_callable: true,
      invoke_url: 'https://agent.example/hook',
    });
    expect(response.body.invoke_schema.required).toEqual(['q']);
  });

  it('clears invoke_url with null or an empty string', async () => {
    const { agent, token } = await agentFor();
    const path = `/api/v1/agents/${agent.agent_id}`;
    await app.request('PATCH', path, { token, body: { invoke_url: 'https://agent.example/x' } });
    expect((await app.request('PATCH', path, { token, body: { invoke_url: '' } })).body.invoke_url).toBeNull();
    await app.request('PATCH', path, { token, body: { invoke_url: 'https://agent.example/x' } });
    expect((await app.request('PATCH', path, { token, body: { invoke_url: null } })).body.invoke_url).toBeNull();
  });

  it('refuses anyone but the owner with 403 and changes nothing', async () => {
    const { agent } = await agentFor('Victim');
    const other = await agentFor();
    const response = await app.request('PATCH', `/api/v1/agents/${agent.agent_id}`, {
      token: other.token,
      body: { agent_name: 'Owned' },
    });
    expect(response.status).toBe(403);
    expect((await app.get(`/api/v1/agents/${agent.agent_id}`)).body.agent_name).toBe('Victim');
  });

  it.each([
    ['http invoke_url on mainnet', { invoke_url: 'http://agent.example/x' }],
    ['loopback invoke_url', { invoke_url: 'https://127.0.0.1/x' }],
    ['metadata invoke_url', { invoke_url: 'https://169.254.169.254/latest' }],
    ['localhost invoke_url', { invoke_url: 'https://localhost:8443/x' }],
    ['private invoke_url', { invoke_url: 'https://10.1.2.3/x' }],
    ['decimal loopback invoke_url', { invoke_url: 'https://2130706433/x' }],
    ['mapped IPv6 invoke_url', { invoke_url: 'https://[::ffff:127.0.0.1]/x' }],
    ['invoke_schema that is not an object', { invoke_schema: 'string' }],
    ['invoke_schema that is not a JSON schema', { invoke_schema: { type: 'not-a-type' } }],
    ['bio of 501', { bio: 'x'.repeat(501) }],
    ['unknown status', { status: 'deleted' }],
    ['negative price', { price_claw_per_call: -1 }],
    ['price with 7 decimals', { price_claw_per_call: 0.0000001 }],
    ['twitter handle with spaces', { twitter_handle: 'two words' }],
  ])('refuses %s with 400', async (_label, body) => {
    const { agent, token } = await agentFor();
    const response = await app.request('PATCH', `/api/v1/agents/${agent.agent_id}`, { token, body });
    expect(response.status).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { newWallet, registerAgent, signatureHeaders, signedAction, signIn } from './wallets';
import { compactPlatformCounts } from '../server/stats/platform-stats';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('POST /api/register-agent', () => {
  it('creates an agent with every family A field and emits agent.registered', async () => {
    const { account, response } = await registerAgent(app, newWallet(), {
      agentName: 'Market Scout',
      bio: 'finds things',
      avatar_url: 'https://img.example/a.png',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      wallet_address: account.address,
      name: 'Market Scout',
      handle: 'market-scout',
      bio: 'finds things',
      avatar_url: 'https://img.example/a.png',
      tier: 'none',
      trust_score: 0,
      connections_count: 0,
      skills_count: 0,
      social_handles: { twitter: null, discord: null, telegram: null },
    });
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(response.body.created_at).toISOString()).toBe(response.body.created_at);
    const events = await app.database.sql.query<{ name: string; data: any }>(
      `SELECT name, data FROM events WHERE name = 'agent.registered'`,
    );
    expect(events.some((e) => e.data.agent_id === response.body.id)).toBe(true);
  });

  it('generates a unique handle from the name when omitted', async () => {
    const a = await registerAgent(app, newWallet(), { agentName: 'Twin Name' });
    const b = await registerAgent(app, newWallet(), { agentName: 'Twin Name' });
    expect(a.response.body.handle).toBe('twin-name');
    expect(b.response.body.handle).toMatch(/^twin-name-[0-9a-f]{6}$/);
  });

  it('answers 409 for a taken handle, and for a wallet that already has an agent', async () => {
    const first = await registerAgent(app, newWallet(), { handle: 'taken-handle' });
    expect(first.response.status).toBe(201);
    const second = await registerAgent(app, newWallet(), { handle: 'taken-handle' });
    expect(second.response.status).toBe(409);
    expect(second.response.body.code).toBe('handle_taken');
    const again = await registerAgent(app, first.account);
    expect(again.response.status).toBe(409);
  });

  it.each([
    ['agentName of 1 character', { agentName: 'A' }, 400],
    ['agentName of 51 characters', { agentName: 'A'.repeat(51) }, 400],
    ['bio of 501 characters', { bio: 'b'.repeat(501) }, 400],
    ['handle with capitals', { handle: 'Bad-Handle' }, 400],
    ['handle of 2 characters', { handle: 'ab' }, 400],
    ['handle of 31 characters', { handle: 'a'.repeat(31) }, 400],
    ['avatar_url that is not a URL', { avatar_url: 'not a url' }, 400],
  ])('refuses %s', async (_label, fields, status) => {
    const { response } = await registerAgent(app, newWallet(), fields);
    expect(response.status).toBe(status);
  });

  it.each([
    ['agentName of 2 characters', { agentName: 'AB' }],
    ['agentName of 50 characters', { agentName: 'N'.repeat(50) }],
    ['bio of 500 characters', { bio: 'b'.repeat(500) }],
    ['handle of 3 characters', { handle: 'a-1' }],
    ['handle of 30 characters', { handle: 'z'.repeat(30) }],
  ])('accepts %s', async (_label, fields) => {
    const { response } = await registerAgent(app, newWallet(), fields);
    expect(response.status).toBe(201);
  });

  it('refuses a signature by another wallet, a stale message, the wrong text and a replay', async () => {
    const account = newWallet();
    const other = await signedAction(newWallet(), 'Register agent Alpha');
    const wrongSigner = await app.post('/api/register-agent', { agentName: 'Alpha', walletAddress: account.address, ...other });
    expect(wrongSigner.status).toBe(401);
    const stale = await signedAction(account, 'Register agent Alpha', -400);
    expect((await app.post('/api/register-agent', { agentName: 'Alpha', walletAddress: account.address, ...stale })).status).toBe(
      401,
    );
    const wrongText = await signedAction(account, 'Register agent Beta');
    expect(
      (await app.post('/api/register-agent', { agentName: 'Alpha', walletAddress: account.address, ...wrongText })).status,
    ).toBe(401);
    const good = await signedAction(account, 'Register agent Alpha');
    const created = await app.post('/api/register-agent', { agentName: 'Alpha', walletAddress: account.address, ...good });
    expect(created.status).toBe(201);
    const replayWallet = newWallet();
    const replay = await app.post('/api/register-agent', { agentName: 'Alpha', walletAddress: replayWallet.address, ...good });
    expect(replay.status).toBe(401);
  });
});

describe('lookups', () => {
  it('GET /api/agent?wallet= finds the agent in any letter case, 404 otherwise, 400 for a bad wallet', async () => {
    const { account, response } = await registerAgent(app);
    const found = await app.get(`/api/agent?wallet=${account.address.toLowerCase()}`);
    expect(found.status).toBe(200);
    expect(found.body.id).toBe(response.body.id);
    expect((await app.get(`/api/agent?wallet=${newWallet().address}`)).status).toBe(404);
    expect((await app.get('/api/agent?wallet=0xnope')).status).toBe(400);
    expect((await app.get('/api/agent')).status).toBe(400);
  });

  it('GET /api/agents/{id} finds by UUID and handle; 404 when unknown', async () => {
    const { response } = await registerAgent(app, newWallet(), { handle: 'lookup-me' });
    expect((await app.get(`/api/agents/${response.body.id}`)).body.handle).toBe('lookup-me');
    expect((await app.get('/api/agents/lookup-me')).body.id).toBe(response.body.id);
    expect((await app.get(`/api/agents/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('GET /api/agents pages, searches name and handle, and enforces limit 1-200', async () => {
    const marker = `zq${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await registerAgent(app, newWallet(), { agentName: `${marker} bot ${i}` });
    const page = await app.get(`/api/agents?search=${marker}&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, offset: 0, limit: 2 });
    expect(page.body.agents).toHaveLength(2);
    const rest = await app.get(`/api/agents?search=${marker.toUpperCase()}&limit=2&offset=2`);
    expect(rest.body.agents).toHaveLength(1);
    expect((await app.get('/api/agents')).body.limit).toBe(50);
    expect((await app.get('/api/agents?limit=200')).status).toBe(200);
    expect((await app.get('/api/agents?limit=201')).status).toBe(400);
    expect((await app.get('/api/agents?limit=0')).status).toBe(400);
    expect((await app.get('/api/agents?offset=-1')).status).toBe(400);
    const withMetrics = await app.get(`/api/agents?search=${marker}&with_metrics=true`);
    expect(withMetrics.body.agents[0]).toHaveProperty('endorsement_count', 0);
  });
});

describe('POST /api/update-profile', () => {
  it('updates by bearer token', async () => {
    const { account } = await registerAgent(app);
    const { token } = await signIn(app, account);
    const response = await app.post('/api/update-profile', { bio: 'new bio', social_handles: { twitter: '@scout' } }, { token });
    expect(response.status).toBe(200);
    expect(response.body.bio).toBe('new bio');
    expect(response.body.social_handles.twitter).toBe('scout');
  });

  it('updates by signed body, once per signature', async () => {
    const { account } = await registerAgent(app);
    const signed = await signedAction(account, `Update profile ${account.address}`);
    const body = { name: 'Renamed', walletAddress: account.address, ...signed };
    const response = await app.post('/api/update-profile', body);
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('Renamed');
    expect((await app.post('/api/update-profile', body)).status).toBe(401);
  });

  it('updates by signature headers', async () => {
    const { account } = await registerAgent(app);
    const response = await app.post(
      '/api/update-profile',
      { bio: 'via headers' },
      { headers: await signatureHeaders(account, `Update profile ${account.address}`) },
    );
    expect(response.status).toBe(200);
    expect(response.body.bio).toBe('via headers');
  });

  it('refuses without authentication, and with a bio over 500', async () => {
    expect((await app.post('/api/update-profile', { bio: 'x' })).status).toBe(401);
    const { account } = await registerAgent(app);
    const { token } = await signIn(app, account);
    expect((await app.post('/api/update-profile', { bio: 'x'.repeat(501) }, { token })).status).toBe(400);
  });

  it('cannot change someone else’s agent: a body signed for another wallet is refused', async () => {
    const victim = await registerAgent(app);
    const attacker = newWallet();
    const signed = await signedAction(attacker, `Update profile ${victim.account.address}`);
    const response = await app.post('/api/update-profile', { name: 'Owned', walletAddress: victim.account.address, ...signed });
    expect(response.status).toBe(401);
    expect((await app.get(`/api/agents/${victim.response.body.id}`)).body.name).not.toBe('Owned');
  });

  it('answers 404 when the wallet has no agent', async () => {
    const { token } = await signIn(app, newWallet());
    expect((await app.post('/api/update-profile', { bio: 'x' }, { token })).status).toBe(404);
  });
});

describe('GET /api/stats', () => {
  it('counts live agents', async () => {
    const before = (await app.get('/api/stats')).body.agents;
    await registerAgent(app);
    const after = await app.get('/api/stats');
    expect(after.status).toBe(200);
    expect(after.body.agents).toBe(before + 1);
    expect(after.body).toHaveProperty('scans');
    expect(after.body).toHaveProperty('wallets_tracked');
  });

  it('maintained counters equal counting the tables, before and after their deltas are folded', async () => {
    const counted = async () => {
      const [row] = await app.database.sql.query<Record<string, number>>(
        `SELECT (SELECT count(*) FROM agents)::int AS agents, (SELECT count(*) FROM agents WHERE is_callable)::int AS callable_agents,
           (SELECT count(DISTINCT owner_wallet) FROM agents)::int AS wallets, (SELECT count(*) FROM events)::int AS events`,
      );
      return row;
    };
    await registerAgent(app, newWallet());
    const { response } = await registerAgent(app, newWallet());
    await app.database.sql.query('UPDATE agents SET is_callable = true WHERE id = $1', [response.body.id]);
    const pick = ({ agents, callable_agents, wallets, events }: any) => ({ agents, callable_agents, wallets, events });
    expect(pick((await app.get('/api/stats')).body)).toEqual(await counted());
    await compactPlatformCounts(app.database.sql);
    // folded: one row per counter
    const [rows] = await app.database.sql.query<{ n: number; names: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT name)::int AS names FROM platform_counts',
    );
    expect(rows!.n).toBe(rows!.names);
    expect(pick((await app.get('/api/stats')).body)).toEqual(await counted());
  });
});

// Regressions of the first adversarial probe (security issue): each test failed before its fix.
describe('body-signed messages are exactly their operation', () => {
  it('refuses a register message that carries more than the action text', async () => {
    const account = newWallet();
    const signed = await signedAction(account, 'Register agent Alpha and grant everything');
    const response = await app.post('/api/register-agent', { agentName: 'Alpha', walletAddress: account.address, ...signed });
    expect(response.status).toBe(401);
  });
});

// Regressions for what an adversarial probe found (security issue): free CLAW past the bootstrap
// limit, signature headers that authorized more than their text, writes without their scope,
// input PostgreSQL cannot store, and private data on public views.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../server/api/routes';
import { WORLD_GRANTS } from '../server/credits/accounts';
import { balanceOf } from '../server/credits/ledger';
import { startTestApp, type TestApp } from './harness';
import { clawBalance } from './money';
import { startTarget } from './targets';
import { newWallet, nowSeconds, signatureHeaders, signedAction, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'true' });
});
afterAll(() => app.close());

const fromIp = (ip: string) => ({ 'X-Forwarded-For': ip });
const granted = async () => -(await balanceOf(WORLD_GRANTS, app.database.sql));

describe('the welcome grant is limited per IP however the agent came to exist', () => {
  it('refuses a fourth wallet from one IP even when it created its agent with POST /api/v1/agents first', async () => {
    const ip = '10.20.30.40';
    for (let i = 0; i < 3; i++) {
      const { token } = await signIn(app, newWallet());
      expect((await app.post('/api/v1/agents/bootstrap', {}, { token, headers: fromIp(ip) })).body.welcome_claw).toBe(100);
    }
    const before = await granted();
    const account = newWallet();
    const { token } = await signIn(app, account);
    expect((await app.post('/api/v1/agents', { agent_name: 'Sidestep' }, { token, headers: fromIp(ip) })).status).toBe(201);
    const bootstrap = await app.post('/api/v1/agents/bootstrap', {}, { token, headers: fromIp(ip) });
    expect(bootstrap.status).toBe(429);
    expect(Number(bootstrap.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await clawBalance(account.address)).toBe(0);
    expect(await granted()).toBe(before);
  });

  it('counts IPv6 clients by /64, so rotating addresses in one prefix does not help', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const { token } = await signIn(app, newWallet());
      statuses.push((await app.post('/api/v1/agents/bootstrap', {}, { token, headers: fromIp(`2001:db8:aa:bb::${i}`) })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('lets a wallet that already had its grant bootstrap again from a full IP, granting nothing', async () => {
    const ip = '10.20.30.41';
    const first = await signIn(app, newWallet());
    await app.post('/api/v1/agents/bootstrap', {}, { token: first.token, headers: fromIp(ip) });
    for (let i = 0; i < 2; i++) {
      const { token } = await signIn(app, newWallet());
      await app.post('/api/v1/agents/bootstrap', {}, { token, headers: fromIp(ip) });
    }
    const again = await app.post('/api/v1/agents/bootstrap', {}, { token: first.token, headers: fromIp(ip) });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ welcome_claw: 0, already_existed: true });
  });
});

describe('signature headers authorize exactly the operation their text names', () => {
  const headersFor = async (message: string, account = newWallet()) => ({
    'X-Agent-Address': account.address,
    'X-Agent-Message': message,
    'X-Message-Signature': await account.signMessage({ message }),
  });

  it('refuse any text that is not the operation’s, naming the expected text', async () => {
    const account = newWallet();
    for (const message of [
      `hello world ${nowSeconds()}`,
      `Endorse agent abc as trusted ${nowSeconds()}`,
      `List API keys ${nowSeconds()}`,
    ]) {
      const minted = await app.post('/api/mint-api-key', { label: 'phished' }, { headers: await headersFor(message, account) });
      expect(minted.status).toBe(401);
      expect(minted.body.details.expected_message).toBe('Mint API key phished <unix seconds>');
    }
    expect(
      (await app.get('/api/list-api-keys', { headers: await signatureHeaders(account, 'List API keys') })).body.keys,
    ).toEqual([]);
  });

  it('bind the operation’s fields: a signature for one key id cannot revoke another', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const key = await app.post('/api/mint-api-key', { label: 'keep' }, { token });
    const wrong = await app.post(
      '/api/revoke-api-key',
      { key_id: key.body.key_id },
      { headers: await signatureHeaders(account, 'Revoke API key 00000000-0000-0000-0000-000000000000') },
    );
    expect(wrong.status).toBe(401);
    const right = await app.post(
      '/api/revoke-api-key',
      { key_id: key.body.key_id },
      { headers: await signatureHeaders(account, `Revoke API key ${key.body.key_id}`) },
    );
    expect(right.status).toBe(200);
  });

  it('are refused where no operation text is declared', async () => {
    const account = newWallet();
    const session = await app.get('/api/v1/auth/session', { headers: await headersFor(`Session ${nowSeconds()}`, account) });
    expect(session.status).toBe(401);
  });
});

describe('scopes are enforced on every endpoint that declares them', () => {
  const scoped = ROUTES.filter((route) => route.scopes?.length && route.auth !== 'none');
  let token: string;
  let agentId: string;
  beforeAll(async () => {
    const account = newWallet();
    const owner = await signIn(app, account);
    agentId = (await app.post('/api/v1/agents', { agent_name: 'Scoped' }, { token: owner.token })).body.agent_id;
    // A token that holds one unrelated scope.
    token = (await signIn(app, account, { agentPubkey: 'narrow', scopes: ['jobs.read'] })).token;
  });

  it('covers at least the writes the probe used', () => {
    const names = scoped.map((route) => `${route.method.toUpperCase()} ${route.path}`);
    for (const expected of [
      'PATCH /api/v1/agents/{id}',
      'POST /api/v1/agents',
      'POST /api/v1/agents/{id}/attest',
      'POST /api/update-profile',
      'POST /api/mint-api-key',
      'POST /api/v1/agents/{id}/invoke',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(scoped.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
    '%s answers 403 naming the scope to a token without it, and changes nothing',
    async (_name, route) => {
      const before = await app.database.sql.query('SELECT count(*)::int AS n FROM agents');
      const path = route.path.replace(/\{[^}]+\}/g, agentId);
      const response = await app.request(route.method.toUpperCase(), path, { token, body: route.body ? {} : undefined });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('missing_scope');
      const wanted = route.scopes![0]!;
      expect(typeof wanted === 'string' ? [wanted] : wanted).toContain(response.body.details.required_scope);
      expect(await app.database.sql.query('SELECT count(*)::int AS n FROM agents')).toEqual(before);
    },
  );

  it('gives a challenge without requested_scopes every scope, and a minted key without scopes read scopes only', async () => {
    const account = newWallet();
    const session = await signIn(app, account);
    expect(session.scopes).toContain('agents.invoke');
    expect(session.scopes).toContain('api_keys.manage');
    const minted = await app.post('/api/mint-api-key', { label: 'reader' }, { token: session.token });
    expect(minted.body.scopes.length).toBeGreaterThan(0);
    expect(minted.body.scopes.every((scope: string) => scope.endsWith('.read'))).toBe(true);
  });
});

describe('input PostgreSQL cannot store is a 400 naming the field', () => {
  const agents = async () => (await app.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM agents'))[0]!.n;

  it('refuses NUL characters, lone surrogates and deep nesting everywhere, and changes nothing', async () => {
    const { token } = await signIn(app, newWallet());
    const before = await agents();
    const deep = `{"agent_name":"Deep","metadata":${'{"x":'.repeat(2_000)}{}${'}'.repeat(2_000)}}`;
    const json = { 'content-type': 'application/json' };
    const cases = [
      () => app.get('/api/agents?search=%00'),
      () => app.get('/api/v1/agents?q=a%00b'),
      () => app.get('/api/agents/%00'),
      () => app.post('/api/v1/agents', { agent_name: 'nul\u0000name' }, { token }),
      () => app.post('/api/v1/agents', { agent_name: 'lone \ud800 surrogate' }, { token }),
      () => app.request('POST', '/api/v1/agents', { raw: deep, token, headers: json }),
      () => app.post('/api/v1/agents', { agent_name: 'Key', metadata: { 'a\u0000b': 1 } }, { token }),
    ];
    for (const send of cases) {
      const response = await send();
      expect(response.status, response.text).toBe(400);
      expect(Object.keys(response.body.details.fields ?? {}).length).toBeGreaterThan(0);
    }
    expect(await agents()).toBe(before);
  });
});

describe('public views keep the owner’s secrets', () => {
  it('shows invoke_url and caller wallets to the owner only, counts to everyone', async () => {
    const target = await startTarget();
    try {
      const owner = newWallet();
      const { token: ownerToken } = await signIn(app, owner);
      const agentId = (await app.post('/api/v1/agents', { agent_name: 'Private' }, { token: ownerToken })).body.agent_id;
      await app.request('PATCH', `/api/v1/agents/${agentId}`, {
        token: ownerToken,
        body: { is_callable: true, invoke_url: `${target.url}/echo` },
      });
      const callerAccount = newWallet();
      const { token: callerToken } = await signIn(app, callerAccount);
      expect((await app.post(`/api/v1/agents/${agentId}/invoke`, { hi: 1 }, { token: callerToken })).status).toBe(200);

      const anonymous = await app.get(`/api/v1/agents/${agentId}`);
      expect(anonymous.body.invoke_url).toBeUndefined();
      expect(anonymous.text).not.toContain(callerAccount.address);
      expect(anonymous.body.activity_counts.invocations_received_24h).toBe(1);
      const stranger = await app.get(`/api/v1/agents/${agentId}`, { token: callerToken });
      expect(stranger.body.invoke_url).toBeUndefined();
      const listed = await app.get('/api/v1/agents?is_callable=true');
      expect(listed.text).not.toContain(target.url);

      const own = await app.get(`/api/v1/agents/${agentId}`, { token: ownerToken });
      expect(own.body.invoke_url).toBe(`${target.url}/echo`);
      expect(own.text).toContain(callerAccount.address);
    } finally {
      await target.close();
    }
  });
});

describe('body-signed messages are exactly their operation', () => {
  it('refuses a register message that carries more than the action text', async () => {
    const account = newWallet();
    const signed = await signedAction(account, 'Register agent Alpha and grant everything');
    const response = await app.post('/api/register-agent', { agentName: 'Alpha', walletAddress: account.address, ...signed });
    expect(response.status).toBe(401);
  });
});

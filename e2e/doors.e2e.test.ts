// Both doors behave the same: the REST API served by server.ts (npm start) and through Next.js's
// catch-all route under `next start`: same answers, the client's IP, scheduled work, and caches that
// change at once when an agent is renamed, a token revoked or an endorsement added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { ensureProductionBuild, startServer, type RunningServer } from './server-process';

const doors: Record<'server' | 'next', RunningServer | null> = { server: null, next: null };

beforeAll(async () => {
  ensureProductionBuild();
  [doors.server, doors.next] = await Promise.all([startServer({}, 'server'), startServer({}, 'next')]);
}, 600_000);
afterAll(async () => {
  await Promise.all([doors.server?.stop(), doors.next?.stop()]);
});

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function signIn(base: string, account: PrivateKeyAccount) {
  const challenge = await call(base, 'POST', '/api/v1/auth/challenge', { owner_wallet: account.address, agent_pubkey: 'door' });
  const signature = await account.signMessage({ message: challenge.body.challenge });
  return (await call(base, 'POST', '/api/v1/auth/verify', { challenge_id: challenge.body.challenge_id, signature })).body;
}

const shape = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(shape)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shape(v)]))
      : typeof value;

describe.each(['server', 'next'] as const)('through the %s door', (door) => {
  const base = () => doors[door]!.url;

  it('runs the scheduled work and reports it in health', async () => {
    const health = await call(base(), 'GET', '/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body.checks.map((check: { name: string }) => check.name)).toContain('scheduler');
  });

  it('knows the client’s IP: the fourth wallet from one address gets no welcome grant', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const session = await signIn(base(), privateKeyToAccount(generatePrivateKey()));
      statuses.push((await call(base(), 'POST', '/api/v1/agents/bootstrap', {}, session.token)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('shows a rename, a revocation and an endorsement at once in every view', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const { token } = await signIn(base(), owner);
    const agent = (await call(base(), 'POST', '/api/v1/agents', { agent_name: 'Before' }, token)).body;
    const profile = `/api/agents/${agent.agent_id}/public-profile`;
    expect((await call(base(), 'GET', profile)).body.agent.name).toBe('Before');
    await call(base(), 'PATCH', `/api/v1/agents/${agent.agent_id}`, { agent_name: 'After' }, token);
    expect((await call(base(), 'GET', profile)).body.agent.name).toBe('After');
    expect((await call(base(), 'GET', `/api/agents/${agent.agent_id}`)).body.name).toBe('After');

    const endorser = privateKeyToAccount(generatePrivateKey());
    const endorserSession = await signIn(base(), endorser);
    await call(base(), 'POST', '/api/v1/agents', { agent_name: 'Endorser' }, endorserSession.token);
    const message = `Endorse agent ${agent.agent_id} as trusted ${Math.floor(Date.now() / 1000)}`;
    const endorsed = await call(base(), 'POST', `/api/agents/${agent.agent_id}/endorse`, {
      endorser_wallet: endorser.address,
      attestation_type: 'trusted',
      message,
      signature: await endorser.signMessage({ message }),
    });
    expect(endorsed.status).toBe(201);
    expect((await call(base(), 'GET', profile)).body.attestations).toHaveLength(1);

    expect((await call(base(), 'GET', '/api/v1/auth/session', undefined, token)).status).toBe(200);
    await call(base(), 'POST', '/api/v1/auth/revoke', {}, token);
    expect((await call(base(), 'GET', '/api/v1/auth/session', undefined, token)).status).toBe(401);
  });
});

describe('the two doors', () => {
  it('answer alike: statuses, headers that matter and body shapes', async () => {
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/v1/health'],
      ['GET', '/api/agents?limit=5'],
      ['GET', '/api/v1/agents/not-a-handle-that-exists'],
      ['DELETE', '/api/v1/health'],
      ['GET', '/api/nope'],
      ['POST', '/api/v1/auth/challenge', { owner_wallet: 'bad' }],
      ['GET', '/api/v1/credits/deposit'],
    ];
    for (const [method, path, body] of requests) {
      const [a, b] = await Promise.all([call(doors.server!.url, method, path, body), call(doors.next!.url, method, path, body)]);
      expect(`${method} ${path} ${b.status}`).toBe(`${method} ${path} ${a.status}`);
      expect(shape(b.body)).toEqual(shape(a.body));
      expect(b.headers.get('content-type')).toBe(a.headers.get('content-type'));
      expect(b.headers.get('x-request-id')).toBeTruthy();
    }
  });
});

// Regressions for the adversarial probe's remaining findings (security issue, items 2, 3, 6, 7, 8):
// caller-supplied invoke schemas, signed routed calls, endorsement by registered agents only,
// high-s signatures, the SIWE statement, embedded private IPv4 and fixed 502 reasons.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../server/api/routes';
import { rotateRouterKey } from '../server/invoke/router-keys';
import { startTestApp, type TestApp } from './harness';
import { walletAccount } from '../server/credits/accounts';
import { deposited, fund } from './money';
import { startTarget } from './targets';
import { newWallet, registerAgent, signatureHeaders, signedAction, signIn } from './wallets';

let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await startTestApp({ ENDORSER_MIN_AGE_HOURS: '24' });
  base = await app.listen();
});
afterAll(() => app.close());

async function callableAgent(url: string, extra: Record<string, unknown> = {}) {
  const owner = newWallet();
  const { token } = await signIn(app, owner);
  const agentId = (await app.post('/api/v1/agents', { agent_name: `Target ${owner.address.slice(2, 8)}` }, { token })).body
    .agent_id;
  const patched = await app.request('PATCH', `/api/v1/agents/${agentId}`, {
    token,
    body: { is_callable: true, invoke_url: url, ...extra },
  });
  expect(patched.status, patched.text).toBe(200);
  return { owner, token, agentId };
}

describe('caller-supplied invoke schemas cannot stall, leak or collide', () => {
  it('runs a catastrophic pattern in linear time while /api/v1/health keeps answering under 200 ms', async () => {
    const target = await startTarget();
    try {
      const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
      const { agentId } = await callableAgent(`${target.url}/echo`, { invoke_schema: schema });
      const { token } = await signIn(app, newWallet());
      const payload = { s: `${'a'.repeat(30)}!` };
      // Warm the paths (connection, compiled schema, the refusal) once each.
      expect((await app.post(`/api/v1/agents/${agentId}/invoke`, { s: 'aaaa' }, { token })).status).toBe(200);
      expect((await app.post(`/api/v1/agents/${agentId}/invoke`, payload, { token })).status).toBe(400);
      await (await fetch(`${base}/api/v1/health`)).text();

      const round = async () => {
        let invoking = true;
        const latencies: number[] = [];
        const probe = (async () => {
          while (invoking) {
            const started = performance.now();
            const health = await fetch(`${base}/api/v1/health`);
            await health.text();
            latencies.push(performance.now() - started);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        })();
        // One after another: each is a chance for the pattern to stall the loop (it used to for minutes).
        for (let i = 0; i < 5; i++) {
          const response = await fetch(`${base}/api/v1/agents/${agentId}/invoke`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(payload),
          });
          const body = await response.json();
          expect(response.status).toBe(400);
          expect(body.details.fields['/s']).toMatch(/pattern/);
        }
        // Let the probe take a few more samples after the invokes.
        await new Promise((resolve) => setTimeout(resolve, 50));
        invoking = false;
        await probe;
        expect(latencies.length).toBeGreaterThan(0);
        return latencies;
      };
      // A backtracking engine stalls every round for minutes; a busy test machine (the suite runs files in
      // parallel on shared cores) can delay one sample now and then, so the best of up to 3 rounds counts.
      const rounds: number[][] = [];
      for (let i = 0; i < 3 && !rounds.some((r) => Math.max(...r) < 200); i++) rounds.push(await round());
      const best = rounds.reduce((a, b) => (Math.max(...a) <= Math.max(...b) ? a : b));
      expect(Math.max(...best), rounds.map((r) => r.map(Math.round).join(',')).join(' | ')).toBeLessThan(200);
      // Only the warm-up call reached the target.
      expect(target.calls).toHaveLength(1);
    } finally {
      await target.close();
    }
  });

  it('refuses schemas past the caps at PATCH time with 400 naming the reason, and keeps the old schema', async () => {
    const target = await startTarget();
    try {
      const original = { type: 'object' };
      const { agentId, token } = await callableAgent(`${target.url}/echo`, { invoke_schema: original });
      let deep: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 10; i++) deep = { type: 'object', properties: { x: deep } };
      const many = {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}`, { type: 'string' }])),
      };
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ type: 'object', description: 'x'.repeat(20_000) }, /bytes/],
        [deep, /deeper/],
        [many, /keys/],
        [{ type: 'string', pattern: '^(a)\\1$' }, /pattern/],
        [{ type: 'string', pattern: '(?=a)a' }, /pattern/],
        [{ type: 'string', pattern: 'a'.repeat(300) }, /longer/],
        [{ type: 'string', pattern: '[\\s\\S]{1000}' }, /too complex/],
        [{ type: 'object', patternProperties: { '(?!x)': {} } }, /pattern/],
        [{ $ref: 'https://evil.example/schema.json' }, /outside/],
        [{ type: 'array', uniqueItems: true }, /uniqueItems/],
        [{ type: 'nonsense' }, /not a valid JSON Schema/],
      ];
      for (const [schema, reason] of cases) {
        const response = await app.request('PATCH', `/api/v1/agents/${agentId}`, { token, body: { invoke_schema: schema } });
        expect(response.status, JSON.stringify(schema).slice(0, 80)).toBe(400);
        expect(response.body.details.fields.invoke_schema, response.text).toMatch(reason);
      }
      expect((await app.get(`/api/v1/agents/${agentId}`, { token })).body.invoke_schema).toEqual(original);
    } finally {
      await target.close();
    }
  });

  it('never tests a pattern on a string longer than 16 KiB: such a string does not match', async () => {
    const target = await startTarget();
    try {
      const schema = { type: 'object', properties: { s: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } } };
      const { agentId } = await callableAgent(`${target.url}/echo`, { invoke_schema: schema });
      const { token } = await signIn(app, newWallet());
      const long = await app.post(`/api/v1/agents/${agentId}/invoke`, { s: ['a'.repeat(16_385)] }, { token });
      expect(long.status).toBe(400);
      expect(long.body.details.fields['/s/0']).toMatch(/pattern/);
      expect((await app.post(`/api/v1/agents/${agentId}/invoke`, { s: ['a'.repeat(16_384)] }, { token })).status).toBe(200);
    } finally {
      await target.close();
    }
  });

  it('keeps $id per agent: two agents may use one $id, and each validates with its own schema', async () => {
    const target = await startTarget();
    try {
      const b = await callableAgent(`${target.url}/echo`, {
        invoke_schema: { $id: 'https://example.com/shared', type: 'object', required: ['b'] },
      });
      const c = await callableAgent(`${target.url}/echo`, {
        invoke_schema: { $id: 'https://example.com/shared', type: 'object', required: ['c'] },
      });
      const { token } = await signIn(app, newWallet());
      expect((await app.post(`/api/v1/agents/${b.agentId}/invoke`, { b: 1 }, { token })).status).toBe(200);
      expect((await app.post(`/api/v1/agents/${b.agentId}/invoke`, { c: 1 }, { token })).status).toBe(400);
      expect((await app.post(`/api/v1/agents/${c.agentId}/invoke`, { c: 1 }, { token })).status).toBe(200);
      expect((await app.post(`/api/v1/agents/${c.agentId}/invoke`, { b: 1 }, { token })).status).toBe(400);
      // Re-saving the same $id (the probe's collision) is fine too.
      const again = await app.request('PATCH', `/api/v1/agents/${c.agentId}`, {
        token: c.token,
        body: { invoke_schema: { $id: 'https://example.com/shared', type: 'object', required: ['c'] } },
      });
      expect(again.status).toBe(200);
      expect((await app.post(`/api/v1/agents/${b.agentId}/invoke`, { b: 1 }, { token })).status).toBe(200);
    } finally {
      await target.close();
    }
  });

  it('answers 422, never 500, when a stored schema saved before the caps cannot be used', async () => {
    const target = await startTarget();
    try {
      const { agentId } = await callableAgent(`${target.url}/echo`);
      await app.database.sql.query(`UPDATE agents SET invoke_schema = $1::jsonb WHERE id = $2::uuid`, [
        JSON.stringify({ type: 'string', pattern: '(a)\\1' }),
        agentId,
      ]);
      const { token } = await signIn(app, newWallet());
      const response = await app.post(`/api/v1/agents/${agentId}/invoke`, { s: 'x' }, { token });
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('not_callable');
      expect(target.calls).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('compiles each schema content once, in a bounded cache on the runtime', async () => {
    const target = await startTarget();
    try {
      const { agentId, token } = await callableAgent(`${target.url}/echo`);
      const cache = app.runtime.state.get('invoke.schema-validators') as { size: number; max: number };
      const before = cache.size;
      for (let i = 0; i < 20; i++) {
        const schema = { type: 'object', properties: { [`f${i % 2}`]: { type: 'string' } } };
        expect((await app.request('PATCH', `/api/v1/agents/${agentId}`, { token, body: { invoke_schema: schema } })).status).toBe(
          200,
        );
      }
      expect(cache.max).toBe(500);
      expect((cache as unknown as { maxSize: number }).maxSize).toBe(2 * 1024 * 1024);
      expect(cache.size - before).toBe(2);
    } finally {
      await target.close();
    }
  });
});

describe('forwarded calls carry an RFC 9421 signature a target can check with an off-the-shelf library', () => {
  type Jwk = { kid: string; x: string; kty: string; crv: string };
  const verifyCall = async (jwks: { keys: Jwk[] }, call: { path: string; headers: Record<string, unknown> }, url: string) => {
    const headers = Object.fromEntries(Object.entries(call.headers).filter(([, v]) => typeof v === 'string')) as Record<
      string,
      string
    >;
    return httpbis.verifyMessage(
      {
        requiredParams: ['created', 'expires', 'keyid'],
        requiredFields: [
          '@method',
          '@target-uri',
          'content-digest',
          'x-service-caller-wallet',
          'x-service-caller-agent-id',
          'x-service-trust-score',
          'x-service-propagated-trust',
          'x-service-via',
          'x-service-invocation-id',
        ],
        keyLookup: async (params) => {
          const jwk = jwks.keys.find((key) => key.kid === params.keyid);
          if (!jwk) return null;
          const publicKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
          return { id: jwk.kid, algs: ['ed25519'], verify: async (data, signature) => verify(null, data, publicKey, signature) };
        },
      },
      { method: 'POST', url, headers },
    );
  };
  const digestOf = (raw: string) => `sha-256=:${createHash('sha256').update(raw).digest('base64')}:`;

  it('signs @method, @target-uri, content-digest and the X-Service-* headers; a tampered header fails', async () => {
    const target = await startTarget();
    try {
      const { agentId } = await callableAgent(`${target.url}/echo?x=1`);
      const caller = newWallet();
      const { token } = await signIn(app, caller);
      await app.post('/api/v1/agents', { agent_name: 'Signed caller' }, { token });
      const invoked = await app.post(`/api/v1/agents/${agentId}/invoke`, { hello: 'world' }, { token });
      expect(invoked.status, invoked.text).toBe(200);

      const jwksResponse = await app.get('/api/v1/router/jwks');
      expect(jwksResponse.status).toBe(200);
      expect(jwksResponse.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
      const jwks = jwksResponse.body;
      expect(jwks.keys).toHaveLength(1);

      const call = target.calls[0]!;
      const url = `${target.url}${call.path}`;
      expect(call.headers['signature-input']).toMatch(/^vouchsafe=\(.*\);created=\d+;expires=\d+;keyid="[^"]+";alg="ed25519"/);
      expect(call.headers['x-service-caller-wallet']).toBe(caller.address);
      expect(call.headers['x-service-propagated-trust']).toMatch(/^\d+(\.\d+)?$/);
      expect(call.headers['content-digest']).toBe(digestOf(call.raw));
      expect(await verifyCall(jwks, call, url)).toBe(true);

      // Tampering with any covered part breaks it.
      for (const tampered of [
        { ...call.headers, 'x-service-caller-wallet': newWallet().address.toLowerCase() },
        { ...call.headers, 'x-service-trust-score': '280' },
        { ...call.headers, 'x-service-deadline': String(Date.now() + 3_600_000) },
        { ...call.headers, 'content-digest': digestOf('{"hello":"forged"}') },
      ]) {
        expect(await verifyCall(jwks, { ...call, headers: tampered }, url).catch(() => false)).toBe(false);
      }
      expect(await verifyCall(jwks, call, `${target.url}/other`).catch(() => false)).toBe(false);
      // A request made up by someone else (no signature) is not verified (the library answers null).
      const { signature: _s, 'signature-input': _si, ...unsigned } = call.headers;
      expect(await verifyCall(jwks, { ...call, headers: unsigned }, url).catch(() => false)).not.toBe(true);
    } finally {
      await target.close();
    }
  });

  it('keeps a rotated key listed until its signatures expire, and signs with the new one', async () => {
    const target = await startTarget();
    try {
      const { agentId } = await callableAgent(`${target.url}/echo`);
      const { token } = await signIn(app, newWallet());
      await app.post('/api/v1/agents', { agent_name: 'Rotating caller' }, { token });
      const before = (await app.get('/api/v1/router/jwks')).body;
      const newKid = await rotateRouterKey(app.database.sql);
      expect(await app.post(`/api/v1/agents/${agentId}/invoke`, { n: 1 }, { token })).toMatchObject({ status: 200 });
      const after = (await app.get('/api/v1/router/jwks')).body;
      expect(after.keys.map((key: Jwk) => key.kid)).toEqual([newKid, ...before.keys.map((key: Jwk) => key.kid)]);
      const call = target.calls.at(-1)!;
      expect(call.headers['signature-input']).toContain(`keyid="${newKid}"`);
      expect(await verifyCall(after, call, `${target.url}${call.path}`)).toBe(true);
      // Long after the rotation the old key is gone from the set.
      await app.database.sql.query(`UPDATE router_keys SET retired_at = now() - interval '1 hour' WHERE retired_at IS NOT NULL`);
      expect((await app.get('/api/v1/router/jwks')).body.keys.map((key: Jwk) => key.kid)).toEqual([newKid]);
    } finally {
      await target.close();
    }
  });
});

describe('smaller holes', () => {
  const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  /** The malleated twin of a 65-byte signature: s' = n - s, the recovery bit flipped. */
  const malleate = (signature: string) => {
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const v = parseInt(signature.slice(130), 16);
    return `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`;
  };

  it('refuses high-s (malleated) signatures at sign-in, in signature headers and in signed bodies', async () => {
    const account = newWallet();
    const challenge = await app.post('/api/v1/auth/challenge', { owner_wallet: account.address, agent_pubkey: 'pk-high-s' });
    const signature = await account.signMessage({ message: challenge.body.challenge });
    const high = await app.post('/api/v1/auth/verify', {
      challenge_id: challenge.body.challenge_id,
      signature: malleate(signature),
    });
    expect(high.status).toBe(401);
    // The low-s original still works (the refused attempt did not consume the challenge).
    expect((await app.post('/api/v1/auth/verify', { challenge_id: challenge.body.challenge_id, signature })).status).toBe(200);

    const headers = await signatureHeaders(account, 'List API keys');
    const malleated = { ...headers, 'X-Message-Signature': malleate(headers['X-Message-Signature']) };
    expect((await app.get('/api/list-api-keys', { headers: malleated })).status).toBe(401);
    expect((await app.get('/api/list-api-keys', { headers })).status).toBe(200);

    const other = newWallet();
    const signed = await signedAction(other, 'Register agent Malleable');
    const register = (sig: string) =>
      app.post('/api/register-agent', {
        agentName: 'Malleable',
        walletAddress: other.address,
        message: signed.message,
        signature: sig,
      });
    expect((await register(malleate(signed.signature))).status).toBe(401);
    expect((await register(signed.signature)).status).toBe(201);
  });

  it('quotes agent_name and agent_pubkey in the SIWE statement and refuses line breaks and control characters', async () => {
    const account = newWallet();
    const posing = await app.post('/api/v1/auth/challenge', {
      owner_wallet: account.address,
      agent_pubkey: 'pk-quote',
      agent_name: 'bob. Scopes: none. Ignore the rest',
      requested_scopes: ['credits.read'],
    });
    expect(posing.status).toBe(200);
    expect(posing.body.challenge).toContain(
      'Sign in to Vouchsafe as agent "bob. Scopes: none. Ignore the rest". Scopes: credits.read.',
    );
    const quoted = await app.post('/api/v1/auth/challenge', { owner_wallet: account.address, agent_pubkey: 'say "hi"' });
    expect(quoted.body.challenge).toContain('as agent "say \\"hi\\"". Scopes:');
    for (const body of [
      { agent_pubkey: 'pk', agent_name: 'bob\r\nURI: https://evil.example' },
      { agent_pubkey: 'pk\nline' },
      { agent_pubkey: 'pk', agent_name: 'tab\there' },
      { agent_pubkey: 'pk\u2028sep' },
    ]) {
      const response = await app.post('/api/v1/auth/challenge', { owner_wallet: account.address, ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 502 with a fixed reason and keeps network detail out of the answer', async () => {
    const caller = newWallet();
    const { token } = await signIn(app, caller);
    for (const url of ['http://no-such-agent-host.invalid/echo', 'http://127.0.0.1:1/echo']) {
      const { agentId } = await callableAgent(url, { price_claw_per_call: 0 });
      const response = await app.post(`/api/v1/agents/${agentId}/invoke`, { x: 1 }, { token });
      expect(response.status).toBe(502);
      expect(response.body.details.reason).toBe('target_unreachable');
      expect(response.text).not.toMatch(/ENOTFOUND|ECONNREFUSED|EHOSTUNREACH|127\.0\.0\.1|no-such-agent-host|getaddrinfo/);
      const [stored] = await app.database.sql.query<{ error: string }>(
        `SELECT error FROM invocations WHERE target_agent_id = $1::uuid`,
        [agentId],
      );
      expect(stored!.error).toBe('target_unreachable');
    }
    const target = await startTarget();
    try {
      const { agentId } = await callableAgent(`${target.url}/fail`);
      const failed = await app.post(`/api/v1/agents/${agentId}/invoke`, { x: 1 }, { token });
      expect(failed.status).toBe(502);
      expect(failed.body.details).toMatchObject({
        reason: 'target_error',
        target_status: 500,
        target_response: { error: 'boom' },
      });
    } finally {
      await target.close();
    }
  });
});

describe('only registered, established agents may endorse', () => {
  const endorse = async (endorser: ReturnType<typeof newWallet>, agentId: string, type: string) => {
    const message = `Endorse agent ${agentId} as ${type} ${Math.floor(Date.now() / 1000)}`;
    return app.post(`/api/agents/${agentId}/endorse`, {
      endorser_wallet: endorser.address,
      attestation_type: type,
      message,
      signature: await endorser.signMessage({ message }),
    });
  };
  const TYPES = ['verified', 'trusted', 'skill_verified', 'security_audited'];

  it('refuses throwaway wallets and brand-new agents with 403, changing no score', async () => {
    const { response } = await registerAgent(app);
    const subject = response.body.id as string;
    const scoreOf = async () => (await app.get(`/api/agents/${subject}`)).body.trust_score as number;
    const before = await scoreOf();
    // The probe: three walletless endorsers, each with every type.
    for (let i = 0; i < 3; i++) {
      const throwaway = newWallet();
      for (const type of TYPES) {
        const refused = await endorse(throwaway, subject, type);
        expect(refused.status).toBe(403);
        expect(refused.body.details.reason).toBe('no_registered_agent');
      }
    }
    // A wallet that registered an agent a moment ago is refused too, and told when it may endorse.
    const { account: fresh, response: freshAgent } = await registerAgent(app);
    const early = await endorse(fresh, subject, 'trusted');
    expect(early.status).toBe(403);
    expect(early.body.details).toMatchObject({ reason: 'endorser_too_new', min_age_hours: 24 });
    expect(Date.parse(early.body.details.eligible_at)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(await scoreOf()).toBe(before);
    const rows = await app.database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM endorsements WHERE subject_agent_id = $1::uuid`,
      [subject],
    );
    expect(rows[0]!.n).toBe(0);

    // Once its agent is a day old it may endorse, and the spec's arithmetic applies as before (for an
    // endorser with standing: here a deposit; see trust.int.test.ts for the rule).
    await deposited(fresh.address, 1);
    await app.database.sql.query(`UPDATE agents SET created_at = now() - interval '25 hours' WHERE id = $1::uuid`, [
      freshAgent.body.id,
    ]);
    const accepted = await endorse(fresh, subject, 'trusted');
    expect(accepted.status, accepted.text).toBe(201);
    expect(accepted.body.trust_impact.points).toBeGreaterThanOrEqual(10);
    // Both scores are shown side by side.
    const view = await app.get(`/api/v1/agents/${subject}`);
    expect(view.body).toHaveProperty('propagated_trust_score');
    expect(view.body.trust_score).toBe(await scoreOf());
  });
});

describe('object-level authorization matrix: another agent’s credential never reads or changes the object', () => {
  type Ctx = {
    victimAgent: string;
    victimWallet: string;
    victimKeyId: string;
    endorsementId: string;
    attacker: ReturnType<typeof newWallet>;
    attackerToken: string;
    pipelineId: string;
    webhookId: string;
    deliveryId: string;
    openJobId: string;
    openBidId: string;
    executingJobId: string;
    completedJobId: string;
    signalId: string;
    strategyId: string;
    skillId: string;
    draftSkillId: string;
    approvalId: string;
  };
  const memory = (ctx: Ctx, key = '') => `/api/v1/agents/${ctx.victimAgent}/memory${key ? `/${key}` : ''}`;
  const expectStatus = async (response: Promise<{ status: number; text: string }>, status: number) => {
    const settled = await response;
    expect(settled.status, settled.text).toBe(status);
  };
  // Every route that names or owns an object, with the attack of another agent and what must hold.
  const MATRIX: Record<string, (ctx: Ctx) => Promise<void>> = {
    'PATCH /api/v1/agents/{id}': async (ctx) => {
      for (const body of [
        { agent_name: 'Hijacked' },
        { invoke_url: 'http://127.0.0.1:9/steal', is_callable: true },
        { price_claw_per_call: 0 },
        { max_spend_claw_per_day: 1_000_000 },
        { status: 'paused' },
        { invoke_schema: { type: 'object' } },
      ]) {
        const response = await app.request('PATCH', `/api/v1/agents/${ctx.victimAgent}`, { token: ctx.attackerToken, body });
        expect(response.status).toBe(403);
      }
    },
    'POST /api/v1/agents/{id}/erc8004/link': async (ctx) => {
      for (const body of [{}, { erc8004_agent_id: '0' }]) {
        await expectStatus(app.post(`/api/v1/agents/${ctx.victimAgent}/erc8004/link`, body, { token: ctx.attackerToken }), 403);
      }
    },
    'DELETE /api/v1/agents/{id}/erc8004/link': async (ctx) => {
      await expectStatus(
        app.request('DELETE', `/api/v1/agents/${ctx.victimAgent}/erc8004/link`, { token: ctx.attackerToken }),
        403,
      );
    },
    'GET /api/v1/agents/{id}': async (ctx) => {
      const view = await app.get(`/api/v1/agents/${ctx.victimAgent}`, { token: ctx.attackerToken });
      expect(view.status).toBe(200);
      expect(view.body.invoke_url).toBeUndefined();
    },
    'POST /api/update-profile': async (ctx) => {
      // The body's wallet is ignored for a token: the attacker can only change its own agent.
      const response = await app.post(
        '/api/update-profile',
        { walletAddress: ctx.victimWallet, name: 'Hijacked', bio: 'pwned' },
        { token: ctx.attackerToken },
      );
      expect([200, 404]).toContain(response.status);
    },
    'POST /api/v1/agents': async (ctx) => {
      const [victim] = await app.database.sql.query<{ agent_pubkey: string }>(
        `SELECT agent_pubkey FROM agents WHERE id = $1::uuid`,
        [ctx.victimAgent],
      );
      const response = await app.post(
        '/api/v1/agents',
        { agent_name: 'Hijacked', agent_pubkey: victim!.agent_pubkey },
        { token: ctx.attackerToken },
      );
      if (response.status < 300) expect(response.body.agent_id).not.toBe(ctx.victimAgent);
    },
    'POST /api/revoke-api-key': async (ctx) => {
      const response = await app.post('/api/revoke-api-key', { key_id: ctx.victimKeyId }, { token: ctx.attackerToken });
      expect(response.status).toBe(404);
    },
    'PATCH /api/v1/api-keys/{id}': async (ctx) => {
      const response = await app.request('PATCH', `/api/v1/api-keys/${ctx.victimKeyId}`, {
        token: ctx.attackerToken,
        body: { spend_policy: { allowed_payees: null, max_claw_per_call: null, approval_above_claw: null } },
      });
      expect(response.status).toBe(404);
    },
    'GET /api/v1/approvals': async (ctx) => {
      const response = await app.get('/api/v1/approvals', { token: ctx.attackerToken });
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(ctx.approvalId);
    },
    'GET /api/v1/approvals/{id}': (ctx) =>
      expectStatus(app.get(`/api/v1/approvals/${ctx.approvalId}`, { token: ctx.attackerToken }), 404),
    'POST /api/v1/approvals/{id}/approve': async (ctx) => {
      // The attacker signs the victim's approval's exact text with its own wallet: refused.
      const text = `Approve spend ${ctx.approvalId}: 7 CLAW to wallet ${ctx.attacker.address}`;
      const message = `${text} ${Math.floor(Date.now() / 1000)}`;
      const signature = await ctx.attacker.signMessage({ message });
      await expectStatus(
        app.post(`/api/v1/approvals/${ctx.approvalId}/approve`, { message, signature }, { token: ctx.attackerToken }),
        401,
      );
    },
    'POST /api/v1/approvals/{id}/reject': async (ctx) => {
      const message = `Reject spend ${ctx.approvalId}: 7 CLAW to wallet ${ctx.attacker.address} ${Math.floor(Date.now() / 1000)}`;
      const signature = await ctx.attacker.signMessage({ message });
      await expectStatus(
        app.post(`/api/v1/approvals/${ctx.approvalId}/reject`, { message, signature }, { token: ctx.attackerToken }),
        401,
      );
    },
    'GET /api/list-api-keys': async (ctx) => {
      const response = await app.get('/api/list-api-keys', { token: ctx.attackerToken });
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(ctx.victimKeyId);
    },
    'DELETE /api/agents/{id}/endorse': async (ctx) => {
      const message = `Revoke endorsement ${ctx.endorsementId} ${Math.floor(Date.now() / 1000)}`;
      const response = await app.request('DELETE', `/api/agents/${ctx.victimAgent}/endorse`, {
        body: {
          endorser_wallet: ctx.attacker.address,
          attestation_id: ctx.endorsementId,
          message,
          signature: await ctx.attacker.signMessage({ message }),
        },
      });
      expect(response.status).toBe(403);
    },

    // Memory of the victim's agent: 403 for any other wallet (memory.int.test.ts).
    'GET /api/v1/agents/{id}/memory': (ctx) => expectStatus(app.get(memory(ctx), { token: ctx.attackerToken }), 403),
    'POST /api/v1/agents/{id}/memory': (ctx) =>
      expectStatus(app.post(memory(ctx), { key: 'secret', value: 'pwned' }, { token: ctx.attackerToken }), 403),
    'DELETE /api/v1/agents/{id}/memory': (ctx) =>
      expectStatus(app.request('DELETE', memory(ctx), { token: ctx.attackerToken }), 403),
    'GET /api/v1/agents/{id}/memory/{key}': (ctx) =>
      expectStatus(app.get(memory(ctx, 'secret'), { token: ctx.attackerToken }), 403),
    'PUT /api/v1/agents/{id}/memory/{key}': (ctx) =>
      expectStatus(app.request('PUT', memory(ctx, 'secret'), { token: ctx.attackerToken, body: { value: 'pwned' } }), 403),
    'DELETE /api/v1/agents/{id}/memory/{key}': (ctx) =>
      expectStatus(app.request('DELETE', memory(ctx, 'secret'), { token: ctx.attackerToken }), 403),
    // Pipelines: another wallet's pipeline does not exist for the caller (404), and is never run on the owner's money.
    'GET /api/v1/pipelines/{id}': (ctx) =>
      expectStatus(app.get(`/api/v1/pipelines/${ctx.pipelineId}`, { token: ctx.attackerToken }), 404),
    'PATCH /api/v1/pipelines/{id}': (ctx) =>
      expectStatus(
        app.request('PATCH', `/api/v1/pipelines/${ctx.pipelineId}`, { token: ctx.attackerToken, body: { status: 'paused' } }),
        404,
      ),
    'DELETE /api/v1/pipelines/{id}': (ctx) =>
      expectStatus(app.request('DELETE', `/api/v1/pipelines/${ctx.pipelineId}`, { token: ctx.attackerToken }), 404),
    'POST /api/v1/pipelines/{id}/run': (ctx) =>
      expectStatus(app.post(`/api/v1/pipelines/${ctx.pipelineId}/run`, { payload: {} }, { token: ctx.attackerToken }), 404),
    'GET /api/v1/pipelines': async (ctx) => {
      const response = await app.get('/api/v1/pipelines', { token: ctx.attackerToken });
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(ctx.pipelineId);
    },
    // Webhooks and their deliveries: 404 for another wallet, in both families.
    'DELETE /api/v1/webhooks/{id}': (ctx) =>
      expectStatus(app.request('DELETE', `/api/v1/webhooks/${ctx.webhookId}`, { token: ctx.attackerToken }), 404),
    'DELETE /api/webhooks/{id}': (ctx) =>
      expectStatus(app.request('DELETE', `/api/webhooks/${ctx.webhookId}`, { token: ctx.attackerToken }), 404),
    'GET /api/v1/webhooks/{id}/deliveries': (ctx) =>
      expectStatus(app.get(`/api/v1/webhooks/${ctx.webhookId}/deliveries`, { token: ctx.attackerToken }), 404),
    'POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver': async (ctx) => {
      const path = (webhookId: string) => `/api/v1/webhooks/${webhookId}/deliveries/${ctx.deliveryId}/redeliver`;
      await expectStatus(app.post(path(ctx.webhookId), undefined, { token: ctx.attackerToken }), 404);
      // The victim's delivery under the attacker's own webhook is not found either.
      const own = crypto.randomUUID();
      await app.database.sql.query(
        `INSERT INTO webhooks (id, owner_wallet, url, events) VALUES ($1::uuid, $2, 'https://hooks.example.com/own', ARRAY['job.posted'])`,
        [own, ctx.attacker.address],
      );
      await expectStatus(app.post(path(own), undefined, { token: ctx.attackerToken }), 404);
      const listed = await app.get(`/api/v1/webhooks/${own}/deliveries`, { token: ctx.attackerToken });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.text).not.toContain(ctx.deliveryId);
    },
    'GET /api/v1/webhooks': async (ctx) => {
      const response = await app.get('/api/v1/webhooks', { token: ctx.attackerToken });
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(ctx.webhookId);
    },
    'GET /api/webhooks': async (ctx) => {
      const response = await app.get('/api/webhooks', { token: ctx.attackerToken });
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(ctx.webhookId);
    },
    // Jobs: only the poster accepts a bid, only the winning bidder submits, only those two read the result.
    'POST /api/v1/jobs/{id}/accept': async (ctx) => {
      await expectStatus(
        app.post(`/api/v1/jobs/${ctx.openJobId}/accept`, { bid_id: ctx.openBidId }, { token: ctx.attackerToken }),
        403,
      );
      // A bid on the victim's job cannot be accepted through the attacker's own job.
      await fund(ctx.attacker.address, 10);
      const own = await app.post(
        '/api/v1/jobs',
        { title: 'Own job', description: 'Mine', bounty_claw: 10 },
        { token: ctx.attackerToken },
      );
      expect(own.status, own.text).toBe(201);
      await expectStatus(
        app.post(`/api/v1/jobs/${own.body.job_id}/accept`, { bid_id: ctx.openBidId }, { token: ctx.attackerToken }),
        404,
      );
    },
    'POST /api/v1/jobs/{id}/submit': (ctx) =>
      expectStatus(
        app.post(`/api/v1/jobs/${ctx.executingJobId}/submit`, { result: { verdict: 'forged' } }, { token: ctx.attackerToken }),
        403,
      ),
    // Only the poster cancels (and takes the bounty back).
    'POST /api/v1/jobs/{id}/cancel': async (ctx) => {
      for (const id of [ctx.openJobId, ctx.executingJobId])
        await expectStatus(app.post(`/api/v1/jobs/${id}/cancel`, {}, { token: ctx.attackerToken }), 403);
    },
    'GET /api/v1/jobs/{id}': async (ctx) => {
      const response = await app.get(`/api/v1/jobs/${ctx.completedJobId}`, { token: ctx.attackerToken });
      expect(response.status).toBe(200);
      expect(response.body.status).toBe('completed');
      expect(response.body.result).toBeNull();
      expect(response.text).not.toContain('victim-only-result');
    },
    'GET /api/v1/jobs': async (ctx) => {
      const response = await app.get('/api/v1/jobs?status=completed', { token: ctx.attackerToken });
      expect(response.status).toBe(200);
      expect(response.text).toContain(ctx.completedJobId);
      expect(response.text).not.toContain('victim-only-result');
    },
    'POST /api/webhooks': async (ctx) => {
      // A body signed by the attacker's key that claims the victim's wallet registers nothing for the victim.
      const url = 'https://hooks.example.com/stolen';
      const signed = await signedAction(ctx.attacker, `Register webhook ${url}`);
      await expectStatus(
        app.post('/api/webhooks', { url, events: ['job.posted'], wallet_address: ctx.victimWallet, ...signed }),
        401,
      );
    },
    // Signals: only the publisher (or an admin) resolves.
    'POST /api/v1/signals/{id}/resolve': (ctx) =>
      expectStatus(
        app.post(`/api/v1/signals/${ctx.signalId}/resolve`, { outcome: 'incorrect' }, { token: ctx.attackerToken }),
        403,
      ),
    // Signals: only a staker disputes the publisher's proposed outcome.
    'POST /api/v1/signals/{id}/dispute': (ctx) =>
      expectStatus(app.post(`/api/v1/signals/${ctx.signalId}/dispute`, {}, { token: ctx.attackerToken }), 403),
    // Trade strategies: 404 for another wallet.
    'GET /api/v1/trade/strategies/{id}': (ctx) =>
      expectStatus(app.get(`/api/v1/trade/strategies/${ctx.strategyId}`, { token: ctx.attackerToken }), 404),
    'PATCH /api/v1/trade/strategies/{id}': async (ctx) => {
      for (const status of ['paused', 'cancelled'])
        await expectStatus(
          app.request('PATCH', `/api/v1/trade/strategies/${ctx.strategyId}`, { token: ctx.attackerToken, body: { status } }),
          404,
        );
    },
    'GET /api/v1/trade/strategies': async (ctx) => {
      const response = await app.get('/api/v1/trade/strategies', { token: ctx.attackerToken });
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(ctx.strategyId);
    },
    // Skills: only the author (or an admin) removes one; installs are signed by the installer's own wallet.
    // The catalogue: another author's drafts, integration payload and review reasons are the author's only.
    'GET /api/skills': async (ctx) => {
      for (const query of ['', '?status=draft', '?status=draft&search=Victim']) {
        const response = await app.get(`/api/skills${query}`, { token: ctx.attackerToken });
        expect(response.status, response.text).toBe(200);
        expect(response.text).not.toContain(ctx.draftSkillId);
        expect(response.text).not.toContain('victim-draft-payload');
        expect(response.text).not.toContain('victim-skill-payload');
      }
    },
    'GET /api/v1/skills': async (ctx) => {
      const response = await app.get('/api/v1/skills?limit=100', { token: ctx.attackerToken });
      expect(response.status, response.text).toBe(200);
      expect(response.text).toContain(ctx.skillId);
      expect(response.text).not.toContain(ctx.draftSkillId);
      expect(response.text).not.toContain('victim-skill-payload');
    },
    'DELETE /api/v1/skills/{id}': (ctx) =>
      expectStatus(app.request('DELETE', `/api/v1/skills/${ctx.skillId}`, { token: ctx.attackerToken }), 403),
    'DELETE /api/skills/{id}/install': async (ctx) => {
      // The attacker signs with its own key but names the victim as the installer.
      const signed = await signedAction(
        ctx.attacker,
        `Uninstall skill ${ctx.skillId} n${Math.random().toString(36).slice(2, 10)}`,
      );
      await expectStatus(
        app.request('DELETE', `/api/skills/${ctx.skillId}/install`, { body: { installer_wallet: ctx.victimWallet, ...signed } }),
        401,
      );
    },
    'POST /api/skills/{id}/install': async (ctx) => {
      const signed = await signedAction(ctx.attacker, `Install skill ${ctx.skillId} n${Math.random().toString(36).slice(2, 10)}`);
      await expectStatus(
        app.request('POST', `/api/skills/${ctx.skillId}/install`, { body: { installer_wallet: ctx.victimWallet, ...signed } }),
        401,
      );
    },
  };
  // Routes that touch no object of another agent, and why.
  const NOT_OBJECTS: Record<string, string> = {
    'GET /api/agent': 'public read',
    'GET /api/agents': 'public list',
    'GET /api/agents/{id}/endorse': 'public list of endorsements',
    'POST /api/agents/{id}/endorse': 'acting on another agent is the operation (signed by the endorser)',
    'GET /api/agents/{id}': 'public view (family A shows no owner-only field)',
    'GET /api/agents/{id}/invoke': 'public invocation info',
    'POST /api/agents/{id}/invoke': 'invoking another agent is the operation (paid by the caller)',
    'GET /api/agents/{id}/public-profile': 'public view',
    'GET /api/graph/connections': 'public graph',
    'POST /api/mint-api-key': 'creates a key for the caller’s own wallet',
    'POST /api/register-agent': 'creates the signer’s own agent',
    'GET /api/stats': 'public counts',
    'POST /api/v1/agents/bootstrap': 'the caller’s own agent and grant',
    'GET /api/v1/agents': 'public list (owner-only fields hidden)',
    'GET /api/v1/agents/me/stats': 'the caller’s own stats',
    'POST /api/v1/agents/{id}/attest': 'attesting another agent is the operation',
    'POST /api/v1/agents/{id}/invoke': 'invoking another agent is the operation (paid by the caller)',
    'POST /api/v1/auth/challenge': 'no credential',
    'POST /api/v1/auth/revoke': 'revokes the calling token only',
    'GET /api/v1/auth/session': 'the caller’s own session',
    'POST /api/v1/auth/verify': 'no credential',
    'GET /api/v1/credits/deposit': 'public instructions',
    'GET /api/v1/credits': 'the caller’s own balance',
    'GET /api/v1/health': 'public',
    'GET /api/v1/health/live': 'public',
    'GET /api/v1/health/ready': 'public',
    'GET /api/v1/router/jwks': 'public keys',
    'GET /api/v1/agents/{id}/agent-card.json': 'public, signed A2A card of a callable agent (no owner-only field)',
    'POST /api/v1/verify/agent-card': 'stateless public verification of a card the caller sends; names no stored object',
    'POST /api/analyze': 'analyzes a public token contract; the report is the caller’s own request',
    'GET /api/cron/{job}': 'operator-only (CRON_SECRET), runs a platform job; no agent object named',
    'GET /api/skills/examples': 'public examples',
    'POST /api/skills': 'publishes the caller’s own skill',
    'GET /api/skills/{id}/install': 'public install info (name, version, price, install count)',
    'GET /api/smart-money/alerts': 'platform-wide alerts (subscription-gated), no per-agent data',
    'GET /api/smart-money/events': 'platform-wide events (subscription-gated), no per-agent data',
    'GET /api/smart-money/preview': 'public delayed preview',
    'GET /api/smart-money/wallets': 'the shared, platform-wide watch list',
    'POST /api/smart-money/watch': 'adds to the shared watch list; an existing entry’s label is never overwritten',
    'GET /api/v1/agents/leaderboard': 'public ranking',
    'POST /api/v1/credits/deposit':
      'credits the caller only, for a transfer sent from the caller’s wallet (deposit_not_yours otherwise)',
    'POST /api/v1/credits/topup':
      'credits the caller (or, without credentials, the wallet that signed the payment) for a USDC payment that wallet signed; takes nothing from anyone else',
    'POST /api/v1/devnet/faucet': 'bundled devnet only: mints test tokens to a wallet; takes nothing from anyone',
    'POST /api/v1/jobs': 'posts the caller’s own job, escrowing the caller’s bounty',
    'POST /api/v1/jobs/{id}/bid': 'bidding on another’s job is the operation (never on one’s own)',
    'GET /api/v1/mcp': 'public tool list',
    'POST /api/v1/mcp': 'each tool acts as the caller (its own balance, its own invocations and jobs)',
    'POST /api/v1/pipelines': 'creates the caller’s own pipeline, paid by the caller',
    'GET /api/v1/referrals': 'the caller’s own referral code and earnings',
    'GET /api/v1/referrals/me': 'the caller’s own referral code and earnings',
    'POST /api/v1/referrals/register': 'registers the caller as referred by a code (the referrer gains, loses nothing)',
    'GET /api/v1/signals': 'public list',
    'POST /api/v1/signals': 'publishes the caller’s own signal, escrowing the caller’s stake',
    'GET /api/v1/signals/{id}': 'public view',
    'POST /api/v1/signals/{id}/stake': 'staking on another’s signal is the operation, paid by the caller',
    'POST /api/v1/skills': 'publishes the caller’s own skill, staking the caller’s credits',
    'GET /api/v1/smart-money/alerts': 'platform-wide alerts (subscription-gated), no per-agent data',
    'GET /api/v1/smart-money/events': 'platform-wide events (subscription-gated), no per-agent data',
    'POST /api/v1/smart-money/subscribe': 'the caller’s own subscription, paid by the caller',
    'GET /api/v1/smart-money/wallets': 'the shared, platform-wide watch list',
    'POST /api/v1/smart-money/wallets': 'adds to the shared watch list; an existing entry’s label is never overwritten',
    'GET /api/v1/stream': 'public events, private ones only to their audience (canSee; stream.int.test.ts)',
    'GET /api/v1/trade/price': 'public price',
    'GET /api/v1/trade/quote': 'a quote for the caller’s own wallet as recipient',
    'POST /api/v1/trade/strategies': 'creates the caller’s own strategy, paid by the caller',
    'POST /api/v1/trade/swap': 'relays a transaction the caller signed from its own wallet (another sender is refused)',
    'GET /api/v1/trade/tokens': 'public token list',
    'POST /api/v1/webhooks': 'registers the caller’s own webhook',
    'GET /api/v1/agents/{id}/registration.json': 'public ERC-8004 registration file',
    'GET /api/v1/agents/{id}/erc8004/feedback': 'public on-chain feedback',
    'GET /api/v1/verify/erc8004/{agentRegistry}/{agentId}': 'public verification of an on-chain identity',
    'GET /api/v1/invocations/{id}/feedback.json':
      'public by design: the feedbackURI of on-chain feedback, named by an unguessable invocation id; shows no more than the chain will',
  };

  it('lists every route either in the matrix or with a reason it touches no other agent’s object', () => {
    for (const route of ROUTES) {
      const name = `${route.method.toUpperCase()} ${route.path}`;
      expect(name in MATRIX || name in NOT_OBJECTS, `${name} is in neither the matrix nor the exemptions`).toBe(true);
    }
  });

  it('refuses another agent’s credential on every object route, and the victim’s data is unchanged', async () => {
    const victim = newWallet();
    const victimSession = await signIn(app, victim);
    const victimAgent = (
      await app.post(
        '/api/v1/agents',
        { agent_name: 'Victim', agent_pubkey: `pk-${victim.address.slice(2, 10)}` },
        { token: victimSession.token },
      )
    ).body.agent_id as string;
    await app.request('PATCH', `/api/v1/agents/${victimAgent}`, {
      token: victimSession.token,
      body: { invoke_url: 'http://127.0.0.1:9/private', is_callable: true, price_claw_per_call: 5 },
    });
    const victimKeyId = (await app.post('/api/mint-api-key', { label: 'victim' }, { token: victimSession.token })).body
      .key_id as string;
    const attacker = newWallet();
    const attackerToken = (await signIn(app, attacker)).token;
    await app.post('/api/v1/agents', { agent_name: 'Attacker' }, { token: attackerToken });
    // An endorsement of the victim's agent by a third, established agent.
    const { account: endorser, response: endorserAgent } = await registerAgent(app);
    await app.database.sql.query(`UPDATE agents SET created_at = now() - interval '2 days' WHERE id = $1::uuid`, [
      endorserAgent.body.id,
    ]);
    const message = `Endorse agent ${victimAgent} as trusted ${Math.floor(Date.now() / 1000)}`;
    const endorsed = await app.post(`/api/agents/${victimAgent}/endorse`, {
      endorser_wallet: endorser.address,
      attestation_type: 'trusted',
      message,
      signature: await endorser.signMessage({ message }),
    });
    expect(endorsed.status).toBe(201);

    const endorsementMarker = `"id":"${endorsed.body.endorsement.id}"`;
    const victimWallet = victimSession.wallet_address;
    const vt = { token: victimSession.token };
    const created = <T extends { status: number; text: string }>(response: T, status = 201): T => {
      expect(response.status, response.text).toBe(status);
      return response;
    };
    // The victim's objects in the newer domains, made through the API with the victim's own token.
    await fund(victimWallet, 1_000_000 + 500 + 10 + 300 + 5);
    created(await app.post(`/api/v1/agents/${victimAgent}/memory`, { key: 'secret', value: 's3cret' }, vt));
    const pipelineId = created(
      await app.post(
        '/api/v1/pipelines',
        {
          name: 'Victim pipeline',
          trigger_type: 'manual',
          steps: [{ id: 's', name: 'S', agent_id: victimAgent, output_key: 's' }],
        },
        vt,
      ),
    ).body.pipeline_id as string;
    const signalId = created(
      await app.post(
        '/api/v1/signals',
        { title: 'ETH up', body: 'because', signal_type: 'long', asset: 'ETH', confidence: 60, stake_claw: 5 },
        vt,
      ),
    ).body.signal_id as string;
    const skillId = created(
      await app.post(
        '/api/v1/skills',
        {
          name: `Victim skill ${victim.address.slice(2, 8)}`,
          summary: 'Short summary',
          description: 'Long description',
          category: 'general',
          integration_type: 'api',
          integration_payload: { endpoints: [{ method: 'GET', url: 'https://example.com/victim-skill-payload' }] },
        },
        vt,
      ),
    ).body.id as string;
    const install = await signedAction(victim, `Install skill ${skillId} n${Math.random().toString(36).slice(2, 10)}`);
    created(await app.post(`/api/skills/${skillId}/install`, { installer_wallet: victimWallet, ...install }));
    // Jobs: one open with a worker's bid, one executing, one completed with a result only the two parties read.
    const worker = newWallet();
    const workerToken = (await signIn(app, worker)).token;
    await app.post('/api/v1/agents', { agent_name: 'Worker' }, { token: workerToken });
    const job = async (stage: 'open' | 'executing' | 'completed') => {
      const jobId = created(await app.post('/api/v1/jobs', { title: `Job ${stage}`, description: 'Do it', bounty_claw: 100 }, vt))
        .body.job_id as string;
      const bidId = created(
        await app.post(`/api/v1/jobs/${jobId}/bid`, { bid_claw: 90, eta_seconds: 60, proposal: 'Me' }, { token: workerToken }),
      ).body.bid_id as string;
      if (stage !== 'open') created(await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bidId }, vt), 200);
      if (stage === 'completed')
        created(
          await app.post(`/api/v1/jobs/${jobId}/submit`, { result: { note: 'victim-only-result' } }, { token: workerToken }),
          200,
        );
      return { jobId, bidId };
    };
    const openJob = await job('open');
    const executingJob = await job('executing');
    const completedJob = await job('completed');
    // A webhook with a failed delivery, and a trade strategy: made in SQL (this app has no chain and a
    // mainnet receiver policy; webhooks.int.test.ts and trade.int.test.ts create them over HTTP).
    const webhookId = crypto.randomUUID();
    const deliveryId = crypto.randomUUID();
    const strategyId = crypto.randomUUID();
    await app.database.sql.query(
      `INSERT INTO webhooks (id, owner_wallet, url, events) VALUES ($1::uuid, $2, 'https://hooks.example.com/victim', ARRAY['job.posted'])`,
      [webhookId, victimWallet],
    );
    await app.database.sql.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, attempts, next_attempt_at)
       SELECT $1::uuid, $2::uuid, max(id), 'failed', 4, NULL FROM events`,
      [deliveryId, webhookId],
    );
    await app.database.sql.query(
      `INSERT INTO strategies (id, owner_wallet, owner_agent_id, name, strategy_type, token_in, token_out, amount_in_raw,
         interval_seconds, max_executions, slippage_bps, status, next_run_at)
       VALUES ($1::uuid, $2, $3::uuid, 'Victim DCA', 'dca', 'ETH', '0x0000000000000000000000000000000000000001',
         '1000000000000000', 3600, 2, 50, 'active', now() + interval '1 hour')`,
      [strategyId, victimWallet, victimAgent],
    );
    const draftSkillId = crypto.randomUUID();
    await app.database.sql.query(
      `INSERT INTO skills (id, author_agent_id, author_wallet, name, description, category, pricing_type, status,
         integration_type, integration_payload, family, flag_reasons)
       VALUES ($1::uuid, $2::uuid, $3, $4, 'A draft held by the scan', 'general', 'free', 'draft', 'api',
         '{"note":"victim-draft-payload"}', 'b', ARRAY['suspicious'])`,
      [draftSkillId, victimAgent, victimWallet, `Victim draft ${victim.address.slice(2, 8)}`],
    );
    // (The author sees its draft and payloads: the catalogue attacks below can fail.)
    const ownDrafts = await app.get('/api/skills?status=draft', vt);
    expect(ownDrafts.text).toContain(draftSkillId);
    expect(ownDrafts.text).toContain('victim-draft-payload');
    expect((await app.get('/api/v1/skills?limit=100', vt)).text).toContain('victim-skill-payload');
    const jobIds = [openJob.jobId, executingJob.jobId, completedJob.jobId];

    // A spend policy on the victim's key and a pending approval of one of its spends.
    const policed = await app.request('PATCH', `/api/v1/api-keys/${victimKeyId}`, {
      token: victimSession.token,
      body: { spend_policy: { approval_above_claw: 1 } },
    });
    expect(policed.status, policed.text).toBe(200);
    const approvalId = crypto.randomUUID();
    await app.database.sql.query(
      `INSERT INTO spend_approvals (id, wallet, credential_id, reason, payee_wallet, amount, expires_at)
       VALUES ($1::uuid, $2, $3::uuid, 'invocation_charge', $4, 7000000, now() + interval '1 day')`,
      [approvalId, victimWallet, victimKeyId, attacker.address],
    );
    const snapshot = async () =>
      JSON.stringify([
        await app.database.sql.query(`SELECT * FROM spend_policies WHERE wallet = $1 ORDER BY credential_id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM spend_approvals WHERE wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM agents WHERE owner_wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM api_keys WHERE wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM endorsements WHERE subject_agent_id = $1::uuid ORDER BY id`, [victimAgent]),
        await app.database.sql.query(`SELECT * FROM ledger_accounts WHERE id = $1`, [walletAccount(victimWallet)]),
        await app.database.sql.query(`SELECT * FROM memory_entries WHERE agent_id = $1::uuid ORDER BY key`, [victimAgent]),
        await app.database.sql.query(`SELECT * FROM pipelines WHERE owner_wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(
          `SELECT * FROM pipeline_runs WHERE pipeline_id IN (SELECT id FROM pipelines WHERE owner_wallet = $1) ORDER BY id`,
          [victimWallet],
        ),
        await app.database.sql.query(`SELECT * FROM webhooks WHERE owner_wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM webhook_deliveries WHERE webhook_id = $1::uuid ORDER BY id`, [webhookId]),
        await app.database.sql.query(`SELECT * FROM jobs WHERE poster_wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM job_bids WHERE job_id = ANY($1::uuid[]) ORDER BY id`, [jobIds]),
        await app.database.sql.query(`SELECT * FROM signals WHERE publisher_wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM signal_stakes WHERE signal_id = $1::uuid ORDER BY id`, [signalId]),
        await app.database.sql.query(`SELECT * FROM strategies WHERE owner_wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM skills WHERE author_wallet = $1 ORDER BY id`, [victimWallet]),
        await app.database.sql.query(`SELECT * FROM skill_installs WHERE installer_wallet = $1 ORDER BY skill_id`, [
          victimWallet,
        ]),
      ]);
    const before = await snapshot();
    expect(before).toContain(victimKeyId);
    expect(before).toContain(`"id":"${victimAgent}"`);
    expect(before).toContain(endorsementMarker);
    for (const id of [pipelineId, webhookId, deliveryId, ...jobIds, signalId, strategyId, skillId, draftSkillId])
      expect(before).toContain(id);
    expect(before).toContain('s3cret');
    expect(before).toContain(approvalId);
    expect(before).toContain('victim-only-result');
    const ctx: Ctx = {
      victimAgent,
      victimWallet,
      victimKeyId,
      endorsementId: endorsed.body.endorsement.id,
      attacker,
      attackerToken,
      pipelineId,
      webhookId,
      deliveryId,
      openJobId: openJob.jobId,
      openBidId: openJob.bidId,
      executingJobId: executingJob.jobId,
      completedJobId: completedJob.jobId,
      signalId,
      strategyId,
      skillId,
      draftSkillId,
      approvalId,
    };
    for (const [name, attack] of Object.entries(MATRIX)) {
      await attack(ctx);
      expect(await snapshot(), `${name} changed the victim’s data`).toBe(before);
    }

    // The owner's own token without the needed scope is refused on the same routes, changing nothing.
    const narrow = (await signIn(app, victim, { agentPubkey: 'narrow-victim', scopes: ['credits.read'] })).token;
    // (Signing in issued the new credential's own API key: compare with the state after it.)
    const beforeNarrow = await snapshot();
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/agents/${victimAgent}`, { agent_name: 'Renamed', price_claw_per_call: 0 }],
      ['POST', '/api/update-profile', { name: 'Renamed' }],
      ['POST', '/api/v1/agents', { agent_name: 'Renamed', agent_pubkey: `pk-${victim.address.slice(2, 10)}` }],
      ['POST', '/api/revoke-api-key', { key_id: victimKeyId }],
      ['GET', '/api/list-api-keys', undefined],
      ['POST', '/api/mint-api-key', { label: 'more' }],
      ['PATCH', `/api/v1/api-keys/${victimKeyId}`, { spend_policy: { approval_above_claw: null } }],
      ['GET', memory(ctx), undefined],
      ['GET', memory(ctx, 'secret'), undefined],
      ['POST', memory(ctx), { key: 'secret', value: 'renamed' }],
      ['PUT', memory(ctx, 'secret'), { value: 'renamed' }],
      ['DELETE', memory(ctx, 'secret'), undefined],
      ['DELETE', memory(ctx), undefined],
      ['PATCH', `/api/v1/pipelines/${pipelineId}`, { status: 'paused' }],
      ['POST', `/api/v1/pipelines/${pipelineId}/run`, { payload: {} }],
      ['DELETE', `/api/v1/pipelines/${pipelineId}`, undefined],
      ['GET', '/api/v1/webhooks', undefined],
      ['GET', '/api/webhooks', undefined],
      ['GET', `/api/v1/webhooks/${webhookId}/deliveries`, undefined],
      ['POST', `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, undefined],
      ['DELETE', `/api/v1/webhooks/${webhookId}`, undefined],
      ['DELETE', `/api/webhooks/${webhookId}`, undefined],
      ['POST', `/api/v1/jobs/${openJob.jobId}/accept`, { bid_id: openJob.bidId }],
      ['POST', `/api/v1/signals/${signalId}/resolve`, { outcome: 'correct' }],
      ['PATCH', `/api/v1/trade/strategies/${strategyId}`, { status: 'paused' }],
      ['DELETE', `/api/v1/skills/${skillId}`, undefined],
      ['POST', `/api/v1/agents/${victimAgent}/erc8004/link`, {}],
      ['DELETE', `/api/v1/agents/${victimAgent}/erc8004/link`, undefined],
    ] as const) {
      const response = await app.request(method, path, { token: narrow, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.code).toBe('missing_scope');
      expect(await snapshot(), `${method} ${path} changed the owner’s data without the scope`).toBe(beforeNarrow);
    }
  });
});

// Regressions of the first adversarial probe (security issue): each test failed before its fix.
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

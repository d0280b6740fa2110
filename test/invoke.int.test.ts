import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { clawBalance, fund } from './money';
import { startTarget } from './targets';
import { newWallet, signatureHeaders, signIn } from './wallets';
import { compactWalletInvocationCounts, MISCOUNTED_WALLETS_SQL } from '../server/stats/wallet-invocations';

let app: TestApp;
let target: Awaited<ReturnType<typeof startTarget>>;
beforeAll(async () => {
  app = await startTestApp({ INVOKE_TIMEOUT_MS: '3000' });
  target = await startTarget();
});
afterAll(async () => {
  await target.close();
  await app.close();
});

/** An agent with an owner wallet, callable at `path` of the local target for `price` CLAW. */
async function callableAgent(path = '/echo', price = 0, extra: Record<string, unknown> = {}) {
  const owner = newWallet();
  const session = await signIn(app, owner);
  const created = await app.post('/api/v1/agents', { agent_name: 'Target' }, { token: session.token });
  const patched = await app.request('PATCH', `/api/v1/agents/${created.body.agent_id}`, {
    token: session.token,
    body: { is_callable: true, invoke_url: `${target.url}${path}`, price_claw_per_call: price, ...extra },
  });
  expect(patched.status).toBe(200);
  return { owner, id: created.body.agent_id as string, token: session.token };
}

async function caller(claw = 0, options: Parameters<typeof signIn>[2] = {}) {
  const account = newWallet();
  const session = await signIn(app, account, options);
  await app.post('/api/v1/agents', { agent_name: 'Caller' }, { token: session.token });
  if (claw > 0) await fund(account.address, claw);
  return { account, token: session.token };
}

const callsTo = (path: string) => target.calls.filter((c) => c.path === path).length;

describe('POST /api/v1/agents/{id}/invoke', () => {
  it('forwards the body with the caller’s identity and pays the target’s owner', async () => {
    const agent = await callableAgent('/echo', 2.5);
    const me = await caller(10);
    const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, { question: 'hi' }, { token: me.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      target_agent: { agent_id: agent.id },
      fee_claw: 2.5,
      response: { echo: { question: 'hi' }, caller: me.account.address },
    });
    expect(response.body.invocation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body.duration_ms).toBeGreaterThanOrEqual(0);
    const call = target.calls.at(-1)!;
    expect(call.headers['x-service-caller-wallet']).toBe(me.account.address);
    expect(call.headers['x-service-caller-agent-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(call.headers['x-service-trust-score']).toMatch(/^\d+$/);
    expect(call.headers['x-service-via']).toBe('vouchsafe-router/1');
    expect(await clawBalance(me.account.address)).toBe(7.5);
    expect(await clawBalance(agent.owner.address)).toBe(2.5);
    const events = await app.database.sql.query<{ data: any; audience: string[] }>(
      `SELECT data, audience FROM events WHERE name = 'agent.invoked'`,
    );
    const event = events.find((e) => e.data.invocation_id === response.body.invocation_id);
    // Private: the caller and the target's owner see it (docs/events.md).
    expect(event?.audience.sort()).toEqual([me.account.address.toLowerCase(), agent.owner.address.toLowerCase()].sort());
  });

  it('answers 404 for an unknown target and 403 without agents.invoke', async () => {
    const me = await caller();
    expect((await app.post(`/api/v1/agents/${crypto.randomUUID()}/invoke`, {}, { token: me.token })).status).toBe(404);
    const agent = await callableAgent();
    const limited = await caller(0, { scopes: ['agents.read'] });
    const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: limited.token });
    expect(response.status).toBe(403);
    expect(response.body.error).toContain('agents.invoke');
  });

  it('answers 422 for a paused target, one not callable, and one without invoke_url', async () => {
    const me = await caller(5);
    const paused = await callableAgent('/echo', 0, { status: 'paused' });
    const notCallable = await callableAgent('/echo', 0, { is_callable: false });
    const noUrl = await callableAgent('/echo', 0, { invoke_url: null });
    for (const agent of [paused, notCallable, noUrl]) {
      const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('not_callable');
    }
  });

  it('answers 402 and forwards nothing when the caller cannot pay', async () => {
    const agent = await callableAgent('/echo?paid', 5);
    const me = await caller(4.999999);
    const before = callsTo('/echo?paid');
    const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, { x: 1 }, { token: me.token });
    expect(response.status).toBe(402);
    expect(response.body.code).toBe('insufficient_credits');
    expect(callsTo('/echo?paid')).toBe(before);
    expect(await clawBalance(me.account.address)).toBe(4.999999);
    const rows = await app.database.sql.query('SELECT id FROM invocations WHERE caller_wallet = $1', [me.account.address]);
    expect(rows).toHaveLength(0);
  });

  it('validates the payload against invoke_schema before charging (400)', async () => {
    const agent = await callableAgent('/echo', 1, {
      invoke_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    });
    const me = await caller(5);
    const bad = await app.post(`/api/v1/agents/${agent.id}/invoke`, { q: 5 }, { token: me.token });
    expect(bad.status).toBe(400);
    expect(await clawBalance(me.account.address)).toBe(5);
    const good = await app.post(`/api/v1/agents/${agent.id}/invoke`, { q: 'ok' }, { token: me.token });
    expect(good.status).toBe(200);
  });

  it('refunds in full and answers 502 when the target fails', async () => {
    const agent = await callableAgent('/fail', 3);
    const me = await caller(3);
    const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
    expect(response.status).toBe(502);
    expect(response.body.details).toMatchObject({ target_status: 500, refunded_claw: 3 });
    expect(await clawBalance(me.account.address)).toBe(3);
    expect(await clawBalance(agent.owner.address)).toBe(0);
    const credits = await app.get('/api/v1/credits', { token: me.token });
    expect(credits.body.daily_spend_claw).toBe(0);
    expect(credits.body.transactions.map((t: any) => [t.direction, t.reason])).toEqual([
      ['credit', 'invocation_refund'],
      ['debit', 'invocation_charge'],
      ['credit', 'test_seed'],
    ]);
  });

  it('refunds in full and answers 504 when the target times out', async () => {
    const agent = await callableAgent('/slow', 1.25);
    const me = await caller(2);
    const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
    expect(response.status).toBe(504);
    expect(response.body.code).toBe('upstream_timeout');
    expect(await clawBalance(me.account.address)).toBe(2);
  });

  it('treats a redirect as a target error and never follows it', async () => {
    const agent = await callableAgent('/redirect', 1);
    const me = await caller(1);
    const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
    expect(response.status).toBe(502);
    expect(response.body.details.target_status).toBe(302);
    expect(await clawBalance(me.account.address)).toBe(1);
  });

  it('lets exactly 50 of 200 concurrent calls through when the balance covers 50', async () => {
    const agent = await callableAgent('/echo?hot', 1);
    const me = await caller(50);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => app.post(`/api/v1/agents/${agent.id}/invoke`, { i }, { token: me.token })),
    );
    const statuses = results.map((r) => r.status);
    expect(results.filter((r) => ![200, 402].includes(r.status)).map((r) => r.body)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 402)).toHaveLength(150);
    expect(await clawBalance(me.account.address)).toBe(0);
    expect(await clawBalance(agent.owner.address)).toBe(50);
    expect(callsTo('/echo?hot')).toBe(50);
  });

  it('holds the daily limit under concurrency (402 daily_limit_exceeded)', async () => {
    const agent = await callableAgent('/echo?daily', 1);
    const me = await caller(100, { maxSpend: 10 });
    const results = await Promise.all(
      Array.from({ length: 25 }, () => app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).toHaveLength(15);
    expect(refused[0]!.body.code).toBe('daily_limit_exceeded');
    expect(await clawBalance(me.account.address)).toBe(90);
    const credits = await app.get('/api/v1/credits', { token: me.token });
    expect(credits.body).toMatchObject({ daily_spend_claw: 10, daily_limit_claw: 10, balance_claw: 90 });
  });

  it('takes the stricter of the token’s and the agent’s daily limit', async () => {
    const agent = await callableAgent('/echo', 1);
    const me = await caller(10, { maxSpend: 5 });
    const mine = await app.get('/api/v1/agents/me/stats', { token: me.token });
    await app.request('PATCH', `/api/v1/agents/${mine.body.agent.agent_id}`, {
      token: me.token,
      body: { max_spend_claw_per_day: 2 },
    });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token })).status);
    expect(statuses).toEqual([200, 200, 402]);
  });

  it('invokes free agents without touching the ledger and returns text answers as strings', async () => {
    const agent = await callableAgent('/text', 0);
    const me = await caller();
    const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ fee_claw: 0, response: 'plain answer' });
  });

  it('has the call settled, its agent.invoked event and the partnership edge written when it answers, free or paid', async () => {
    const free = await callableAgent('/echo', 0);
    const me = await caller(5);
    const [callerAgent] = await app.database.sql.query<{ id: string }>('SELECT id FROM agents WHERE owner_wallet = $1', [
      me.account.address,
    ]);
    const paid = await callableAgent('/echo', 1);
    for (const agent of [free, paid, paid]) {
      const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, { n: 1 }, { token: me.token });
      expect(response.status).toBe(200);
      const [row] = await app.database.sql.query<{ status: string; events: number }>(
        `SELECT status, (SELECT count(*)::int FROM events WHERE name = 'agent.invoked' AND data->>'invocation_id' = $1::text) AS events
         FROM invocations WHERE id = $1::uuid`,
        [response.body.invocation_id],
      );
      expect(row).toEqual({ status: 'success', events: 1 });
    }
    const edges = await app.database.sql.query<{ target_agent_id: string; strength: number }>(
      `SELECT target_agent_id, strength FROM trust_edges WHERE source_agent_id = $1 AND type = 'partnership'`,
      [callerAgent!.id],
    );
    const strength = (id: string) => Number(edges.find((e) => e.target_agent_id === id)?.strength ?? 0).toFixed(2);
    expect([strength(free.id), strength(paid.id)]).toEqual(['0.10', '0.20']);
    expect(await clawBalance(me.account.address)).toBe(3);
  });
});

describe('the calls a wallet made, in GET /api/v1/agents/me/stats', () => {
  const made = async (token: string) => (await app.get('/api/v1/agents/me/stats', { token })).body.invocations;
  const counted = async (wallet: string) => {
    const [row] = await app.database.sql.query<{ made: number; succeeded: number }>(
      `SELECT count(*)::int AS made, (count(*) FILTER (WHERE status = 'success'))::int AS succeeded FROM invocations WHERE caller_wallet = $1`,
      [wallet],
    );
    return row;
  };

  it('counts every call, free or paid, answered or failed, at once and after the counts are folded, from maintained rows', async () => {
    const free = await callableAgent('/echo', 0);
    const paid = await callableAgent('/echo', 1);
    const failing = await callableAgent('/fail', 1);
    const me = await caller(20);
    const other = await caller(5);
    expect(await made(me.token)).toEqual({ made: 0, succeeded: 0 });
    await app.post(`/api/v1/agents/${paid.id}/invoke`, {}, { token: other.token });

    const statuses: number[] = [];
    for (const agent of [free, paid, failing])
      statuses.push((await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token })).status);
    // concurrent calls of one wallet, grouped into shared statements
    const together = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app.post(`/api/v1/agents/${[free, paid, failing][i % 3]!.id}/invoke`, {}, { token: me.token }),
      ),
    );
    statuses.push(...together.map((r) => r.status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 502)).toHaveLength(5);
    expect(await made(me.token)).toEqual({ made: 15, succeeded: 10 });
    expect(await counted(me.account.address)).toEqual({ made: 15, succeeded: 10 });
    expect(await made(other.token)).toEqual({ made: 1, succeeded: 1 });

    // The read does not count invocations: it sums the wallet's folded row and its recent deltas.
    const deltas = async () =>
      Number(
        (
          await app.database.sql.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM wallet_invocation_deltas WHERE wallet = $1',
            [me.account.address],
          )
        )[0]!.n,
      );
    expect(await deltas()).toBeGreaterThan(0);
    await compactWalletInvocationCounts(app.database.sql);
    expect(await deltas()).toBe(0);
    expect(await made(me.token)).toEqual({ made: 15, succeeded: 10 });
    await app.database.sql.query(
      `UPDATE invocations SET status = 'error' WHERE id = (SELECT id FROM invocations WHERE caller_wallet = $1 AND status = 'success' LIMIT 1)`,
      [me.account.address],
    );
    await app.database.sql.query(
      `DELETE FROM invocations WHERE id = (SELECT id FROM invocations WHERE caller_wallet = $1 AND status = 'error' LIMIT 1)`,
      [me.account.address],
    );
    expect(await made(me.token)).toEqual({ made: 14, succeeded: 9 });
    expect(await counted(me.account.address)).toEqual({ made: 14, succeeded: 9 });

    // One statement writing for two wallets counts each its own; a call moved to another wallet moves its count.
    const [target] = await app.database.sql.query<{ id: string; owner_wallet: string }>(
      'SELECT id, owner_wallet FROM agents WHERE id = $1',
      [free.id],
    );
    await app.database.sql.query(
      `INSERT INTO invocations (id, caller_wallet, target_agent_id, target_wallet, fee, status, family)
       SELECT gen_random_uuid(), w, $3::uuid, $4, 0, s, 'b' FROM (VALUES ($1, 'success'), ($1, 'error'), ($2, 'success')) v(w, s)`,
      [me.account.address, other.account.address, target!.id, target!.owner_wallet],
    );
    expect(await made(me.token)).toEqual({ made: 16, succeeded: 10 });
    expect(await made(other.token)).toEqual({ made: 2, succeeded: 2 });
    await app.database.sql.query(
      `UPDATE invocations SET caller_wallet = $2 WHERE id = (SELECT id FROM invocations WHERE caller_wallet = $1 AND status = 'success' LIMIT 1)`,
      [me.account.address, other.account.address],
    );
    expect(await made(me.token)).toEqual({ made: 15, succeeded: 9 });
    expect(await made(other.token)).toEqual({ made: 3, succeeded: 3 });
    expect(await counted(other.account.address)).toEqual({ made: 3, succeeded: 3 });
    expect(await app.database.sql.query(MISCOUNTED_WALLETS_SQL)).toEqual([]);

    // What the read shows is the maintained row (plus deltas), not a count of the invocations.
    await compactWalletInvocationCounts(app.database.sql);
    await app.database.sql.query('UPDATE wallet_invocation_counts SET made = made + 1000 WHERE wallet = $1', [
      me.account.address,
    ]);
    expect(await made(me.token)).toEqual({ made: 1015, succeeded: 9 });
    expect(await app.database.sql.query(MISCOUNTED_WALLETS_SQL)).toHaveLength(1);
    await app.database.sql.query('UPDATE wallet_invocation_counts SET made = made - 1000 WHERE wallet = $1', [
      me.account.address,
    ]);
  });
});

describe('/api/agents/{id}/invoke (family A)', () => {
  it('GET describes a callable agent and 404s for an unknown, not callable or paused one', async () => {
    const agent = await callableAgent('/echo', 0.5, { invoke_schema: { type: 'object' } });
    const info = await app.get(`/api/agents/${agent.id}/invoke`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ callable: true, invoke_schema: { type: 'object' }, price_claw_per_call: 0.5 });
    expect(info.body.usage.method).toBe('POST');
    const notCallable = await callableAgent('/echo', 0, { is_callable: false });
    const paused = await callableAgent('/echo', 0, { status: 'paused' });
    const noUrl = await callableAgent('/echo', 0, { invoke_url: null });
    for (const id of [notCallable.id, paused.id, noUrl.id, crypto.randomUUID()]) {
      const response = await app.get(`/api/agents/${id}/invoke`);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
  });

  it('POST invokes for a caller that proves its wallet, by bearer or signature', async () => {
    const agent = await callableAgent('/echo', 1);
    const me = await caller(2);
    const byBearer = await app.post(
      `/api/agents/${agent.id}/invoke`,
      { caller_wallet: me.account.address, payload: { a: 1 } },
      { token: me.token },
    );
    expect(byBearer.status).toBe(200);
    expect(byBearer.body).toMatchObject({ ok: true, status: 200, response: { echo: { a: 1 } } });
    const bySignature = await app.post(
      `/api/agents/${agent.id}/invoke`,
      { caller_wallet: me.account.address, payload: { b: 2 } },
      { headers: await signatureHeaders(me.account, `Invoke agent ${agent.id}`) },
    );
    expect(bySignature.status).toBe(200);
    expect(await clawBalance(me.account.address)).toBe(0);
  });

  it('refuses to bill a wallet the caller did not prove (403) and bad timeouts (400)', async () => {
    const agent = await callableAgent('/echo', 1);
    const victim = await caller(10);
    const attacker = await caller(0);
    const response = await app.post(
      `/api/agents/${agent.id}/invoke`,
      { caller_wallet: victim.account.address, payload: {} },
      { token: attacker.token },
    );
    expect(response.status).toBe(403);
    expect(await clawBalance(victim.account.address)).toBe(10);
    expect(
      (
        await app.post(
          `/api/agents/${agent.id}/invoke`,
          { caller_wallet: attacker.account.address, payload: {}, timeout_ms: 30001 },
          { token: attacker.token },
        )
      ).status,
    ).toBe(400);
    expect(
      (await app.post(`/api/agents/${agent.id}/invoke`, { caller_wallet: attacker.account.address }, { token: attacker.token }))
        .status,
    ).toBe(400);
  });

  it('answers 502 and refunds when the target fails', async () => {
    const agent = await callableAgent('/fail', 1);
    const me = await caller(1);
    const response = await app.post(
      `/api/agents/${agent.id}/invoke`,
      { caller_wallet: me.account.address, payload: {} },
      { token: me.token },
    );
    expect(response.status).toBe(502);
    expect(await clawBalance(me.account.address)).toBe(1);
  });
});

describe('the price a caller pays is the price it saw or capped', () => {
  it('refuses with 409 price_changed, charging and forwarding nothing, when the price is above max_price_claw', async () => {
    const agent = await callableAgent('/echo?capped', 2);
    const me = await caller(10);
    const before = callsTo('/echo?capped');
    const b = await app.post(`/api/v1/agents/${agent.id}/invoke?max_price_claw=1.999999`, { q: 1 }, { token: me.token });
    expect(b.status).toBe(409);
    expect(b.body).toMatchObject({ code: 'price_changed', details: { price_claw: 2, max_price_claw: 1.999999 } });
    const a = await app.post(
      `/api/agents/${agent.id}/invoke`,
      { caller_wallet: me.account.address, payload: {}, max_price_claw: 1 },
      { token: me.token },
    );
    expect(a.status).toBe(409);
    expect(a.body.code).toBe('price_changed');
    expect(callsTo('/echo?capped')).toBe(before);
    expect(await clawBalance(me.account.address)).toBe(10);
    expect(
      await app.database.sql.query('SELECT id FROM invocations WHERE caller_wallet = $1', [me.account.address]),
    ).toHaveLength(0);
    // At or under the cap the call goes through at the price.
    const ok = await app.post(`/api/v1/agents/${agent.id}/invoke?max_price_claw=2`, { q: 1 }, { token: me.token });
    expect(ok.status).toBe(200);
    expect(ok.body.fee_claw).toBe(2);
    expect(await clawBalance(me.account.address)).toBe(8);
    expect((await app.post(`/api/v1/agents/${agent.id}/invoke?max_price_claw=-1`, {}, { token: me.token })).status).toBe(400);
  });

  it('charges the old price until a raise’s notice period has passed, and shows the raise meanwhile', async () => {
    const agent = await callableAgent('/echo', 0.01);
    const raised = await app.request('PATCH', `/api/v1/agents/${agent.id}`, {
      token: agent.token,
      body: { price_claw_per_call: 5000 },
    });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ price_claw_per_call: 0.01, price_pending_claw: 5000 });
    const effectiveAt = Date.parse(raised.body.price_effective_at);
    expect(effectiveAt - Date.now()).toBeGreaterThan(590_000);
    expect((await app.get(`/api/agents/${agent.id}/invoke`)).body).toMatchObject({
      price_claw_per_call: 0.01,
      price_pending_claw: 5000,
    });
    const me = await caller(10);
    const during = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
    expect(during.body.fee_claw).toBe(0.01);
    // The notice has run out (moved back rather than waited for): the new price applies.
    await app.database.sql.query(`UPDATE agents SET price_effective_at = now() - interval '1 second' WHERE id = $1`, [agent.id]);
    expect((await app.get(`/api/v1/agents/${agent.id}`)).body).toMatchObject({ price_claw_per_call: 5000 });
    const after = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
    expect(after.status).toBe(402);
    expect(await clawBalance(me.account.address)).toBe(9.99);
  });

  it('applies a price cut at once', async () => {
    const agent = await callableAgent('/echo', 3);
    const cut = await app.request('PATCH', `/api/v1/agents/${agent.id}`, {
      token: agent.token,
      body: { price_claw_per_call: 1 },
    });
    expect(cut.body.price_claw_per_call).toBe(1);
    expect(cut.body.price_pending_claw).toBeUndefined();
    const me = await caller(5);
    expect((await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token })).body.fee_claw).toBe(1);
  });
});

describe('the router decides the timeout floor and tells the target its deadline', () => {
  it('raises a timeout_ms under 1000 ms to 1000 ms and forwards X-Service-Deadline', async () => {
    const agent = await callableAgent('/delay-400', 1);
    const me = await caller(2);
    const sent = Date.now();
    const response = await app.post(
      `/api/agents/${agent.id}/invoke`,
      { caller_wallet: me.account.address, payload: {}, timeout_ms: 1 },
      { token: me.token },
    );
    expect(response.status).toBe(200);
    expect(response.body.response).toEqual({ delayed: true });
    expect(await clawBalance(agent.owner.address)).toBe(1);
    const call = target.calls.filter((c) => c.path === '/delay-400').at(-1)!;
    const deadline = Number(call.headers['x-service-deadline']);
    expect(deadline - sent).toBeGreaterThanOrEqual(1000);
    expect(deadline - sent).toBeLessThan(2000);
    // Covered by the router's signature like every X-Service-* header.
    expect(call.headers['signature-input']).toContain('"x-service-deadline"');
  });

  it('pays a target that answers 2xx in time even when the caller hung up', async () => {
    const agent = await callableAgent('/delay-800', 1.5);
    const me = await caller(2);
    const url = await app.listen();
    const abort = new AbortController();
    const pending = fetch(`${url}/api/v1/agents/${agent.id}/invoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' },
      body: '{}',
      signal: abort.signal,
    }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expect.poll(() => clawBalance(agent.owner.address), { timeout: 5000 }).toBe(1.5);
    expect(await clawBalance(me.account.address)).toBe(0.5);
    const [row] = await app.database.sql.query<{ status: string }>('SELECT status FROM invocations WHERE caller_wallet = $1', [
      me.account.address,
    ]);
    expect(row?.status).toBe('success');
  });

  it('refunds and answers 502, never a charged 500, when the answer is JSON nested too deep', async () => {
    for (const path of ['/fail-nested-200000', '/ok-nested-200000', '/ok-nested-65']) {
      const agent = await callableAgent(path, 2);
      const me = await caller(2);
      const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
      expect(response.status, path).toBe(502);
      expect(response.body).toMatchObject({ code: 'upstream_error', details: { reason: 'target_error', refunded_claw: 2 } });
      expect(response.body.details.target_response).toBeNull();
      expect(await clawBalance(me.account.address)).toBe(2);
      expect(await clawBalance(agent.owner.address)).toBe(0);
    }
    // 64 levels are forwarded as they are.
    const agent = await callableAgent('/ok-nested-64', 1);
    const me = await caller(1);
    const response = await app.post(`/api/v1/agents/${agent.id}/invoke`, {}, { token: me.token });
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body.response)).toBe('['.repeat(64) + ']'.repeat(64));
  });
});

// Regressions of the first adversarial probe (security issue): each test failed before its fix.
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

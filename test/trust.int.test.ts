import { setTimeout as sleep } from 'node:timers/promises';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { deposited, fund } from './money';
import { newWallet, nowSeconds, registerAgent, signIn } from './wallets';
import { LIVE_DIRTY_MAX, refreshAgentStats } from '../server/trust/trust-counts';
import { EDGES_PER_NODE, MAX_EDGES, MAX_NODES } from '../server/trust/connection-graph';
import { refreshPropagatedTrust } from '../server/trust/propagated-trust';
import { applyStandingChanges } from '../server/trust/apply-standing-changes';
import { deriveEdgesInto } from '../server/trust/derive-edges';

const admin = newWallet();
let app: TestApp;
beforeAll(async () => {
  // Endorsers are registered agents (their age rule has its own test in security.int.test.ts).
  app = await startTestApp({ ADMIN_WALLETS: admin.address, ENDORSER_MIN_AGE_HOURS: '0' });
});
afterAll(() => app.close());

async function agent(fields: Record<string, unknown> = {}) {
  const { account, response } = await registerAgent(app, newWallet(), fields);
  expect(response.status).toBe(201);
  return { account, id: response.body.id as string, handle: response.body.handle as string };
}

const registered = new Set<string>();
/** Only registered agents may endorse: gives a fresh endorser wallet its agent first. */
async function ensureRegistered(account: PrivateKeyAccount) {
  if (registered.has(account.address)) return;
  registered.add(account.address);
  const existing = await app.database.sql.query('SELECT 1 FROM agents WHERE lower(owner_wallet) = lower($1)', [account.address]);
  if (existing.length === 0) expect((await registerAgent(app, account)).response.status).toBe(201);
  // An endorser with standing (it deposited), so its endorsements count (the Sybil rule has its own tests).
  await deposited(account.address, 1);
}

async function endorse(
  endorser: PrivateKeyAccount,
  ref: string,
  type = 'trusted',
  options: { ts?: number; messageRef?: string; nonce?: string } = {},
) {
  await ensureRegistered(endorser);
  const nonce = options.nonce ? `${options.nonce} ` : '';
  const message = `Endorse agent ${options.messageRef ?? ref} as ${type} ${nonce}${options.ts ?? nowSeconds()}`;
  const signature = await endorser.signMessage({ message });
  return app.post(`/api/agents/${ref}/endorse`, {
    endorser_wallet: endorser.address,
    attestation_type: type,
    message,
    signature,
  });
}

const score = async (id: string) => (await app.get(`/api/agents/${id}`)).body.trust_score as number;

describe('POST /api/agents/{id}/endorse', () => {
  // An endorser is a registered agent, so its endorsement also makes a trust-graph connection:
  // +10 for the endorsement and +2 for the connection (the spec's table).
  it('records the endorsement and adds 10 (+2 for the new connection) to the trust score', async () => {
    const subject = await agent();
    const endorser = newWallet();
    const response = await endorse(endorser, subject.id, 'trusted');
    expect(response.status).toBe(201);
    expect(response.body.endorsement).toMatchObject({
      attestation_type: 'trusted',
      subject_agent_id: subject.id,
      attestor_wallet: endorser.address,
    });
    expect(response.body.trust_impact).toMatchObject({ points: 12, previous_trust_score: 0, new_trust_score: 12 });
    expect(await score(subject.id)).toBe(12);
    const list = await app.get(`/api/agents/${subject.handle}/endorse`);
    expect(list.body).toMatchObject({ agent_id: subject.id, count: 1 });
    expect(list.body.trust_impact_formula).toContain('10');
  });

  it('works with a handle in the path and in the message', async () => {
    const subject = await agent({ handle: `h-${Date.now().toString(36)}` });
    expect((await endorse(newWallet(), subject.handle, 'skill_verified')).status).toBe(201);
    expect((await endorse(newWallet(), subject.handle, 'skill_verified', { messageRef: subject.id })).status).toBe(201);
  });

  it('answers 409 for the same endorser and type, and accepts another type', async () => {
    const subject = await agent();
    const endorser = newWallet();
    expect((await endorse(endorser, subject.id, 'trusted')).status).toBe(201);
    const again = await endorse(endorser, subject.id, 'trusted');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('duplicate_endorsement');
    expect((await endorse(endorser, subject.id, 'security_audited')).status).toBe(201);
  });

  it('accepts a timestamp 4:59 old and refuses one 5:01 old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const subject = await agent();
      expect((await endorse(newWallet(), subject.id, 'trusted', { ts: nowSeconds(-299) })).status).toBe(201);
      expect((await endorse(newWallet(), subject.id, 'trusted', { ts: nowSeconds(-301) })).status).toBe(401);
      expect((await endorse(newWallet(), subject.id, 'trusted', { ts: nowSeconds(301) })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses every signature failure with 401', async () => {
    const subject = await agent();
    const other = await agent();
    const endorser = newWallet();
    await ensureRegistered(endorser);
    const post = (body: Record<string, unknown>) =>
      app.post(`/api/agents/${subject.id}/endorse`, { endorser_wallet: endorser.address, attestation_type: 'trusted', ...body });
    const text = `Endorse agent ${subject.id} as trusted ${nowSeconds()}`;
    // signed by someone else
    expect((await post({ message: text, signature: await newWallet().signMessage({ message: text }) })).status).toBe(401);
    // a message for another agent
    const forOther = `Endorse agent ${other.id} as trusted ${nowSeconds()}`;
    expect((await post({ message: forOther, signature: await endorser.signMessage({ message: forOther }) })).status).toBe(401);
    // a message for another type
    const otherType = `Endorse agent ${subject.id} as verified ${nowSeconds()}`;
    expect((await post({ message: otherType, signature: await endorser.signMessage({ message: otherType }) })).status).toBe(401);
    // no timestamp
    const untimed = `Endorse agent ${subject.id} as trusted`;
    expect((await post({ message: untimed, signature: await endorser.signMessage({ message: untimed }) })).status).toBe(401);
    // malformed signature
    expect((await post({ message: text, signature: '0x1234' })).status).toBe(401);
    // the signed text changed after signing
    expect((await post({ message: `${text}0`, signature: await endorser.signMessage({ message: text }) })).status).toBe(401);
    // a replay of an accepted endorsement for the same agent by the same wallet (after revoking)
    const good = `Endorse agent ${subject.id} as trusted ${nowSeconds()}`;
    const signature = await endorser.signMessage({ message: good });
    const created = await post({ message: good, signature });
    expect(created.status).toBe(201);
    const revokeText = `Revoke endorsement ${created.body.endorsement.id} ${nowSeconds()}`;
    await app.request('DELETE', `/api/agents/${subject.id}/endorse`, {
      body: {
        endorser_wallet: endorser.address,
        attestation_id: created.body.endorsement.id,
        message: revokeText,
        signature: await endorser.signMessage({ message: revokeText }),
      },
    });
    expect((await post({ message: good, signature })).status).toBe(401);
  });

  it('refuses self-endorsement (400), unknown agents (404) and bad fields (400)', async () => {
    const subject = await agent();
    expect((await endorse(subject.account, subject.id)).status).toBe(400);
    expect((await endorse(newWallet(), crypto.randomUUID())).status).toBe(404);
    expect((await endorse(newWallet(), subject.id, 'best_friend')).status).toBe(400);
  });
});

describe('GET /api/agents/{id}/endorse pages', () => {
  it('pages newest first by cursor (ties by id), each endorsement once, count all of them', async () => {
    const subject = await agent();
    // seven endorsements, five of them at one instant: the cursor must break the tie by id
    await app.database.sql.query(
      `INSERT INTO endorsements (id, subject_agent_id, endorser_wallet, attestation_type, message, created_at)
       SELECT gen_random_uuid(), $1, '0x' || lpad(to_hex(i), 40, '0'), 'trusted', 'listed', now() - make_interval(secs => least(i, 3))
       FROM generate_series(1, 7) i`,
      [subject.id],
    );
    const expected = await app.database.sql.query<{ id: string }>(
      `SELECT id FROM endorsements WHERE subject_agent_id = $1 AND status = 'active' ORDER BY created_at DESC, id ASC`,
      [subject.id],
    );
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await app.get(`/api/agents/${subject.handle}/endorse?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.count).toBe(7);
      sizes.push(page.body.endorsements.length);
      seen.push(...page.body.endorsements.map((e: any) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(expected.map((row) => row.id));
    // without a limit: the first 50, so this agent's seven and no next page
    const all = await app.get(`/api/agents/${subject.id}/endorse`);
    expect(all.body.endorsements.map((e: any) => e.id)).toEqual(seen);
    expect(all.body.next_cursor).toBeNull();
  });

  it('answers 400 for a cursor no page gave and for a limit out of range', async () => {
    const subject = await agent();
    expect((await app.get(`/api/agents/${subject.id}/endorse?cursor=bm90LWEtY3Vyc29y`)).status).toBe(400);
    // the shape of a cursor around what no page gives: an id of 36 hyphens, instants the database cannot hold
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    for (const forged of [
      `2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`,
      `+010000-01-01T00:00:00.000Z|${crypto.randomUUID()}`,
      `-000001-01-01T00:00:00.000Z|${crypto.randomUUID()}`,
    ]) {
      const answer = await app.get(`/api/agents/${subject.id}/endorse?cursor=${cursor(forged)}`);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('invalid_request');
    }
    expect(
      (await app.get(`/api/agents/${subject.id}/endorse?cursor=${cursor(`2026-01-01T00:00:00.000Z|${crypto.randomUUID()}`)}`))
        .status,
    ).toBe(200);
    expect((await app.get(`/api/agents/${subject.id}/endorse?limit=0`)).status).toBe(400);
    expect((await app.get(`/api/agents/${subject.id}/endorse?limit=201`)).status).toBe(400);
  });
});

describe('DELETE /api/agents/{id}/endorse', () => {
  async function revoke(as: PrivateKeyAccount, ref: string, attestationId: string, endorserWallet = as.address) {
    const message = `Revoke endorsement ${attestationId} ${nowSeconds()}`;
    return app.request('DELETE', `/api/agents/${ref}/endorse`, {
      body: {
        endorser_wallet: endorserWallet,
        attestation_id: attestationId,
        message,
        signature: await as.signMessage({ message }),
      },
    });
  }

  it('lets only the endorser revoke, and removes the effect', async () => {
    const subject = await agent();
    const endorser = newWallet();
    const created = await endorse(endorser, subject.id);
    const id = created.body.endorsement.id;
    const intruder = newWallet();
    expect((await revoke(intruder, subject.id, id)).status).toBe(403);
    expect((await revoke(intruder, subject.id, id, endorser.address)).status).toBe(401);
    expect(await score(subject.id)).toBe(12);
    const revoked = await revoke(endorser, subject.id, id);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ revoked: true, attestation_id: id, new_trust_score: 0 });
    expect(await score(subject.id)).toBe(0);
    expect((await app.get(`/api/agents/${subject.id}/endorse`)).body.count).toBe(0);
    const again = await endorse(endorser, subject.id, 'trusted', { nonce: 'again' });
    expect(again.body).toMatchObject({ endorsement: { status: 'active' } });
    expect(again.status).toBe(201);
  });

  it('answers 404 for an unknown endorsement', async () => {
    const subject = await agent();
    expect((await revoke(newWallet(), subject.id, crypto.randomUUID())).status).toBe(404);
  });
});

describe('the trust edge an endorsement, its revocation or an attestation changes', () => {
  it('is recomputed for that one wallet, and equals recomputing every edge into the agent', async () => {
    const subject = await agent();
    const edgesInto = () =>
      app.database.sql.query<{ source: string; type: string; strength: number }>(
        `SELECT e.source_agent_id AS source, e.type, e.strength FROM trust_edges e WHERE e.target_agent_id = $1
         ORDER BY e.source_agent_id, e.type`,
        [subject.id],
      );
    const actorOf = async (wallet: string) =>
      (
        await app.database.sql.query<{ id: string }>(
          'SELECT id FROM agents WHERE lower(owner_wallet) = lower($1) ORDER BY created_at, id LIMIT 1',
          [wallet],
        )
      )[0]!.id;
    const twice = newWallet();
    const once = newWallet();
    const revoked = newWallet();
    expect((await endorse(twice, subject.id)).status).toBe(201);
    expect((await endorse(twice, subject.id, 'skill_verified')).status).toBe(201);
    expect((await endorse(once, subject.id)).status).toBe(201);
    const created = await endorse(revoked, subject.id);
    expect(created.status).toBe(201);
    // A wallet without standing (an agent, no CLAW earned or deposited): its endorsement makes no edge.
    const sybil = newWallet();
    expect((await registerAgent(app, sybil)).response.status).toBe(201);
    registered.add(sybil.address);
    expect((await endorse(sybil, subject.id)).status).toBe(201);
    // Attestations: positive weight 3 (+0.3), negative (no edge).
    const attest = async (verdict: string, weight: number) => {
      const account = newWallet();
      const { token } = await signIn(app, account);
      await app.post('/api/v1/agents', { agent_name: 'Attester' }, { token });
      expect((await app.post(`/api/v1/agents/${subject.id}/attest`, { verdict, weight }, { token })).status).toBe(200);
      return account;
    };
    const positive = await attest('positive', 3);
    await attest('negative', 4);
    const message = `Revoke endorsement ${created.body.endorsement.id} ${nowSeconds()}`;
    const revocation = await app.request('DELETE', `/api/agents/${subject.id}/endorse`, {
      body: {
        endorser_wallet: revoked.address,
        attestation_id: created.body.endorsement.id,
        message,
        signature: await revoked.signMessage({ message }),
      },
    });
    expect(revocation.status).toBe(200);

    const edges = await edgesInto();
    const strengthOf = async (wallet: string) => {
      const source = await actorOf(wallet);
      return edges.find((e) => e.source === source)?.strength;
    };
    expect(await strengthOf(twice.address)).toBe(1);
    expect(await strengthOf(once.address)).toBe(0.5);
    expect(await strengthOf(positive.address)).toBeCloseTo(0.3);
    expect(await strengthOf(revoked.address)).toBeUndefined();
    expect(await strengthOf(sybil.address)).toBeUndefined();
    expect(edges).toHaveLength(3);
    // Recomputing every edge into the agent from its sources changes nothing.
    await deriveEdgesInto(subject.id, app.database.sql);
    expect(await edgesInto()).toEqual(edges);
  });
});

describe('POST /api/v1/agents/{id}/attest', () => {
  async function attester() {
    const account = newWallet();
    const { token } = await signIn(app, account);
    await app.post('/api/v1/agents', { agent_name: 'Attester' }, { token });
    return token;
  }

  it('records a positive attestation and returns the new score', async () => {
    const subject = await agent();
    const token = await attester();
    const response = await app.post(
      `/api/v1/agents/${subject.id}/attest`,
      { verdict: 'positive', weight: 7, note: 'solid' },
      { token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ attested: true, verdict: 'positive', weight: 7, new_trust_score: 12 });
  });

  it('lets a negative verdict take a positive one back and a neutral one count nothing', async () => {
    const subject = await agent();
    await app.post(`/api/v1/agents/${subject.id}/attest`, { verdict: 'positive', weight: 5 }, { token: await attester() });
    const neutral = await app.post(
      `/api/v1/agents/${subject.id}/attest`,
      { verdict: 'neutral', weight: 5 },
      { token: await attester() },
    );
    // +10 for the positive attestation, +2 for the positive attester's trust edge (a connection)
    expect(neutral.body.new_trust_score).toBe(12);
    const negative = await app.post(
      `/api/v1/agents/${subject.id}/attest`,
      { verdict: 'negative', weight: 5 },
      { token: await attester() },
    );
    // the negative verdict cancels the positive one; negative and neutral make no connection
    expect(negative.body.new_trust_score).toBe(2);
  });

  it.each([
    ['weight 0', { verdict: 'positive', weight: 0 }],
    ['weight 11', { verdict: 'positive', weight: 11 }],
    ['weight 1.5', { verdict: 'positive', weight: 1.5 }],
    ['note of 281', { verdict: 'positive', weight: 5, note: 'n'.repeat(281) }],
    ['unknown verdict', { verdict: 'great', weight: 5 }],
  ])('refuses %s with 400', async (_label, body) => {
    const subject = await agent();
    expect((await app.post(`/api/v1/agents/${subject.id}/attest`, body, { token: await attester() })).status).toBe(400);
  });

  it('accepts weights 1 and 10 and a note of 280', async () => {
    const subject = await agent();
    expect(
      (
        await app.post(
          `/api/v1/agents/${subject.id}/attest`,
          { verdict: 'positive', weight: 1, note: 'n'.repeat(280) },
          { token: await attester() },
        )
      ).status,
    ).toBe(200);
    expect(
      (await app.post(`/api/v1/agents/${subject.id}/attest`, { verdict: 'positive', weight: 10 }, { token: await attester() }))
        .status,
    ).toBe(200);
  });

  it('refuses attesting yourself, and a second attestation of the pair within 7 days (429)', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const own = await app.post('/api/v1/agents', { agent_name: 'Self' }, { token });
    const self = await app.post(`/api/v1/agents/${own.body.agent_id}/attest`, { verdict: 'positive', weight: 5 }, { token });
    expect(self.status).toBe(400);
    const subject = await agent();
    expect((await app.post(`/api/v1/agents/${subject.id}/attest`, { verdict: 'positive', weight: 5 }, { token })).status).toBe(
      200,
    );
    const again = await app.post(`/api/v1/agents/${subject.id}/attest`, { verdict: 'negative', weight: 5 }, { token });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(6 * 24 * 3600);
    // A week later (the declared limit's window ends):
    await app.database.sql.query(
      `UPDATE rate_limit_counters SET window_ends = now() - interval '1 second' WHERE key LIKE 'attest:%'`,
    );
    expect((await app.post(`/api/v1/agents/${subject.id}/attest`, { verdict: 'neutral', weight: 5 }, { token })).status).toBe(
      200,
    );
  });
});

describe('endorsements that cost nothing count nothing (anti-Sybil)', () => {
  /** A wallet whose only CLAW is the welcome grant: it bootstraps an agent and endorses at once. */
  async function freeloader() {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const boot = await app.post('/api/v1/agents/bootstrap', { agent_name: 'Sybil' }, { token });
    expect(boot.status, boot.text).toBeLessThan(300);
    expect(boot.body.welcome_claw).toBe(100);
    registered.add(account.address);
    return { account, token };
  }

  it('a welcome-grant-only endorser adds 0 (trust_impact says so), and counts +10 once it earned CLAW from someone else', async () => {
    const subject = await agent();
    const sybils = [await freeloader(), await freeloader(), await freeloader()];
    for (const sybil of sybils) {
      const response = await endorse(sybil.account, subject.id, 'trusted');
      expect(response.status).toBe(201);
      expect(response.body.trust_impact).toMatchObject({ points: 0, endorser_counts: false, new_trust_score: 0 });
    }
    const before = await app.get(`/api/v1/agents/${subject.id}`);
    expect(before.body.trust.components).toMatchObject({ attestations: 0, connections: 0 });
    expect(before.body.trust_score).toBe(0);

    // The first sybil does paid work for a stranger (a job won): its endorsement now counts.
    const poster = newWallet();
    const posterSession = await signIn(app, poster);
    await fund(poster.address, 10);
    const job = await app.post('/api/v1/jobs', { title: 't', description: 'd', bounty_claw: 5 }, { token: posterSession.token });
    const bid = await app.post(
      `/api/v1/jobs/${job.body.job_id}/bid`,
      { bid_claw: 5, eta_seconds: 60, proposal: 'p' },
      { token: sybils[0]!.token },
    );
    await app.post(`/api/v1/jobs/${job.body.job_id}/accept`, { bid_id: bid.body.bid_id }, { token: posterSession.token });
    expect((await app.post(`/api/v1/jobs/${job.body.job_id}/submit`, { result: 1 }, { token: sybils[0]!.token })).status).toBe(
      200,
    );
    expect(await score(subject.id)).toBe(10);

    // A real endorser still moves the score by the spec's +10 and +2 for its connection (its own edge, the one
    // its endorsement changes); the now-earning sybil's connection comes with the standing job, which re-derives
    // the edges into the agents it endorsed (+2).
    const real = await endorse(newWallet(), subject.id, 'trusted');
    expect(real.body.trust_impact).toMatchObject({ endorser_counts: true, points: 12, new_trust_score: 22 });
    await applyStandingChanges();
    expect(await score(subject.id)).toBe(24);
    // The two without standing still count nothing.
    expect((await app.get(`/api/v1/agents/${subject.id}`)).body.trust.components).toMatchObject({
      attestations: 20,
      connections: 4,
    });
  });

  it('an endorsement made before its endorser had standing counts in full (+10 and its +2 connection) once the endorser earns standing, in the maintained rows too', async () => {
    const subject = await agent();
    // A registered endorser with nothing else (not through ensureRegistered, which deposits).
    const endorser = newWallet();
    expect((await registerAgent(app, endorser)).response.status).toBe(201);
    registered.add(endorser.address);
    expect((await endorse(endorser, subject.id, 'trusted')).body.trust_impact).toMatchObject({ points: 0 });
    await refreshAgentStats(app.database.sql);
    expect(await score(subject.id)).toBe(0);

    // CLAW from someone else gives the endorser standing; nothing about the subject itself changed.
    await deposited(endorser.address, 5);
    await applyStandingChanges();
    expect((await app.get(`/api/v1/agents/${subject.id}`)).body.trust.components).toMatchObject({
      attestations: 10,
      connections: 2,
    });
    expect(await score(subject.id)).toBe(12);
    // The maintained row agrees once the refresh job has run.
    await refreshAgentStats(app.database.sql);
    expect(await score(subject.id)).toBe(12);
    const [queued] = await app.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM standing_changes');
    expect(queued?.n).toBe(0);
  });
});

describe('trust score from live data', () => {
  it('counts received endorsements up to the 100 cap', async () => {
    const subject = await agent();
    for (let i = 0; i < 11; i++) expect((await endorse(newWallet(), subject.id)).status).toBe(201);
    const profile = await app.get(`/api/agents/${subject.id}/public-profile`);
    expect(profile.body.trust.components.attestations).toBe(100);
  });

  it('counts trust-graph connections (2 each, max 40), tier, age and admin verification', async () => {
    const subject = await agent();
    for (let i = 0; i < 21; i++) {
      const endorser = await agent();
      expect((await endorse(endorser.account, subject.id)).status).toBe(201);
    }
    await app.database.sql.query(
      `UPDATE agents SET tier = 'enterprise', created_at = now() - interval '900 days' WHERE id = $1`,
      [subject.id],
    );
    expect((await endorse(admin, subject.id, 'verified')).status).toBe(201);
    const response = await app.get(`/api/v1/agents/${subject.id}`);
    expect(response.body.trust.components).toEqual({
      verified: 20,
      tier: 50,
      skills: 0,
      attestations: 100,
      account_age: 20,
      connections: 40,
    });
    expect(response.body.trust_score).toBe(230);
    const profile = await app.get(`/api/agents/${subject.handle}/public-profile`);
    expect(profile.body.agent.verification_status).toBe('verified');
    const filtered = await app.get('/api/agents?min_trust_score=230');
    expect(filtered.body.agents.map((a: any) => a.id)).toEqual([subject.id]);
    expect((await app.get('/api/v1/agents?min_trust_score=281')).status).toBe(400);
  });
});

describe('maintained trust counts (agent_stats)', () => {
  const view = async (id: string) => {
    const { trust, trust_score, endorsement_count, connections_count, skills_count } = (await app.get(`/api/v1/agents/${id}`))
      .body;
    return { trust, trust_score, endorsement_count, connections_count, skills_count };
  };
  const dirtyRows = async () =>
    Number((await app.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_stats_dirty'))[0]!.n);

  it('a score read from the maintained row equals the one counted from the source tables, before and after the refresh', async () => {
    // the earlier tests' marks folded in: filters count only the newest LIVE_DIRTY_MAX marks live
    await refreshAgentStats(app.database.sql);
    const subject = await agent();
    const endorsers = [await agent(), await agent(), await agent()];
    for (const e of endorsers) expect((await endorse(e.account, subject.id)).status).toBe(201);
    await app.database.sql.query(`UPDATE agents SET tier = 'pro', created_at = now() - interval '100 days' WHERE id = $1`, [
      subject.id,
    ]);
    // marked in the transaction of each change: read live until the job runs
    expect(await dirtyRows()).toBeGreaterThan(0);
    const live = await view(subject.id);
    const liveList = (await app.get(`/api/agents?min_trust_score=${live.trust_score}`)).body.agents.map((a: any) => a.id);
    expect(liveList).toContain(subject.id);
    expect(live.trust_score).toBe(30 + 30 + 3 + 6);

    await refreshAgentStats(app.database.sql);
    expect(await dirtyRows()).toBe(0);
    const [row] = await app.database.sql.query<{ trust_score: number }>(
      'SELECT trust_score FROM agent_stats WHERE agent_id = $1',
      [subject.id],
    );
    expect(row!.trust_score).toBe(live.trust_score);
    expect(await view(subject.id)).toEqual(live);
    expect((await app.get(`/api/agents?min_trust_score=${live.trust_score}`)).body.agents.map((a: any) => a.id)).toEqual(
      liveList,
    );
    // a later change marks the row again: the next read counts it live, never the old row
    expect((await endorse((await agent()).account, subject.id)).status).toBe(201);
    expect((await view(subject.id)).trust_score).toBe(live.trust_score + 12);
    expect((await app.get(`/api/agents?min_trust_score=${live.trust_score + 12}`)).body.agents.map((a: any) => a.id)).toContain(
      subject.id,
    );
  });
});

describe('trust filters while the refresh job is behind', () => {
  it('judge the newest marks live and older marks on the stored row until the refresh folds them in', async () => {
    const subject = await agent();
    const [other] = await app.database.sql.query<{ id: string }>(`SELECT id FROM agents WHERE id <> $1 LIMIT 1`, [subject.id]);
    await refreshAgentStats(app.database.sql);
    // A caller presenting a credential reads past the response cache (whose answers may be up to 1 s old
    // when, as here, stored rows change without a change notice): what is measured is the count itself.
    const { token } = await signIn(app, newWallet());
    const listed = async (tier = '') =>
      (await app.get(`/api/agents?min_trust_score=30&limit=200${tier}`, { token })).body.agents.map((a: any) => a.id) as string[];
    expect(await listed()).not.toContain(subject.id);
    // a tier is worth 30: the change marks the agent, the newest mark, so the filter counts it live
    await app.database.sql.query(`UPDATE agents SET tier = 'pro' WHERE id = $1`, [subject.id]);
    expect(await listed()).toContain(subject.id);
    // with a tier, the filter reads agent_stats' tier: the stored row still says none, the live count (newest mark) says pro
    expect(await listed('&tier=pro')).toContain(subject.id);
    expect(await listed('&tier=entry')).not.toContain(subject.id);
    // LIVE_DIRTY_MAX later marks (the job far behind): the subject's mark is no longer among the newest,
    // so the filter judges it on its stored row (0) until the job runs; its own page stays live
    await app.database.sql.query(`INSERT INTO agent_stats_dirty (agent_id) SELECT $1::uuid FROM generate_series(1, $2::int)`, [
      other!.id,
      LIVE_DIRTY_MAX,
    ]);
    expect(await listed()).not.toContain(subject.id);
    expect(await listed('&tier=pro')).not.toContain(subject.id);
    expect(await score(subject.id)).toBe(30);
    await refreshAgentStats(app.database.sql);
    expect(await listed()).toContain(subject.id);
    expect(await listed('&tier=pro')).toContain(subject.id);
    expect(await listed('&tier=entry')).not.toContain(subject.id);
  });

  it('agent_stats keeps the agent’s tier at every commit, whoever writes the row and however far behind the job is', async () => {
    const subject = await agent();
    await app.database.sql.query(`UPDATE agents SET tier = 'pro' WHERE id = $1`, [subject.id]);
    await refreshAgentStats(app.database.sql);
    const stored = async () =>
      (await app.database.sql.query<{ tier: string }>('SELECT tier FROM agent_stats WHERE agent_id = $1', [subject.id]))[0]?.tier;
    expect(await stored()).toBe('pro');
    const { token } = await signIn(app, newWallet());
    const listed = async (query: string) =>
      (await app.get(`/api/agents?limit=200&${query}`, { token })).body.agents.map((a: any) => a.id) as string[];
    // a tier change rewrites the row in its own transaction: with the job far behind (LIVE_DIRTY_MAX newer marks),
    // the tier filter is exact at once and never lists the agent under its old tier
    await app.database.sql.query(`UPDATE agents SET tier = 'entry' WHERE id = $1`, [subject.id]);
    const [other] = await app.database.sql.query<{ id: string }>(`SELECT id FROM agents WHERE id <> $1 LIMIT 1`, [subject.id]);
    await app.database.sql.query(`INSERT INTO agent_stats_dirty (agent_id) SELECT $1::uuid FROM generate_series(1, $2::int)`, [
      other!.id,
      LIVE_DIRTY_MAX,
    ]);
    expect(await stored()).toBe('entry');
    expect(await listed('tier=pro&min_trust_score=1')).not.toContain(subject.id);
    expect(await listed('tier=entry&min_trust_score=1')).toContain(subject.id);
    // a writer that knows nothing of the column (the refresh of a release before it, during a rolling deploy)
    await app.database.sql.query('DELETE FROM agent_stats WHERE agent_id = $1', [subject.id]);
    await app.database.sql.query(
      `INSERT INTO agent_stats (agent_id, trust_score, agent_created_at) SELECT id, 40, created_at FROM agents WHERE id = $1`,
      [subject.id],
    );
    expect(await stored()).toBe('entry');
    await app.database.sql.query(`UPDATE agent_stats SET trust_score = 41, tier = 'enterprise' WHERE agent_id = $1`, [
      subject.id,
    ]);
    expect(await stored()).toBe('entry');
    await refreshAgentStats(app.database.sql);
  });
});

interface Edge {
  source: string;
  target: string;
  type: string;
  strength: number;
}
const edgeKey = (e: Omit<Edge, 'strength'>) => `${e.source}|${e.target}|${e.type}`;
const textOrder = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** What a graph answer holds, in an order that does not depend on how it was found. */
function answerOf(graph: any): { nodes: string[]; edges: string[]; truncated: boolean } {
  return {
    nodes: graph.nodes.map((n: any) => n.id).sort(),
    edges: graph.edges.map(edgeKey).sort(),
    truncated: graph.truncated,
  };
}

/**
 * The walk of connection-graph.ts followed one edge at a time over the given edges (no two of a node's with
 * the same strength): what the walk of connection-graph.ts must find. Uuids order as their lower-case text.
 */
function walkByHand(centers: string[], all: Edge[], depth: number): ReturnType<typeof answerOf> & { kept: string[] } {
  const visited = new Set(centers);
  let frontier = centers;
  let truncated = false;
  // The edges the walk followed that join two of its nodes, in the order found, once each: the answer lists them first.
  const kept = new Set<string>();
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const room = MAX_NODES - visited.size;
    const perNode = Math.max(3, Math.min(EDGES_PER_NODE, Math.ceil((2 * room) / frontier.length)));
    // A full graph's last hop only tells whether a node was left out (connection-graph.ts): it keeps nothing.
    const probe = room === 0 && perNode < EDGES_PER_NODE && 2 * (perNode + 1) * frontier.length <= MAX_EDGES;
    const hop: Edge[] = [];
    for (const id of frontier) {
      for (const side of ['source', 'target'] as const) {
        const mine = all.filter((e) => e[side] === id).sort((x, y) => y.strength - x.strength);
        if (mine.length > EDGES_PER_NODE && perNode >= EDGES_PER_NODE) truncated = true;
        hop.push(...mine.slice(0, Math.min(perNode + 1, EDGES_PER_NODE)));
      }
    }
    hop.sort(
      (x, y) =>
        y.strength - x.strength || textOrder(x.source, y.source) || textOrder(x.target, y.target) || textOrder(x.type, y.type),
    );
    if (hop.length > MAX_EDGES) truncated = true;
    const next: string[] = [];
    for (const edge of hop.slice(0, MAX_EDGES)) {
      for (const id of [edge.source, edge.target]) {
        if (visited.has(id)) continue;
        if (visited.size >= MAX_NODES) {
          truncated = true;
          continue;
        }
        visited.add(id);
        next.push(id);
      }
    }
    if (!probe)
      for (const edge of hop.slice(0, MAX_EDGES))
        if (visited.has(edge.source) && visited.has(edge.target)) kept.add(edgeKey(edge));
    frontier = next;
  }
  const among = all.filter((e) => visited.has(e.source) && visited.has(e.target));
  return {
    nodes: [...visited].sort(),
    edges: among.map(edgeKey).sort(),
    truncated: truncated || among.length > MAX_EDGES,
    kept: [...kept],
  };
}

/** A graph answer against walkByHand: the same nodes, edges and flag, and the walk's edges first, in its order. */
function expectWalk(graph: any, expected: ReturnType<typeof walkByHand>, label: string): void {
  const { kept, ...answer } = expected;
  expect(answerOf(graph), label).toEqual(answer);
  expect(graph.edges.slice(0, kept.length).map(edgeKey), `${label}: the walk's edges first, in order`).toEqual(kept);
}

describe('GET /api/graph/connections', () => {
  /** `count` agents tagged `tag` (handles tag-1 to tag-count), agents 1 to `centers` the wallet's, oldest first. */
  async function taggedAgents(tag: string, wallet: string, centers: number, count: number, walletEnd: string) {
    await app.database.sql.query(
      `INSERT INTO agents (id, owner_wallet, agent_pubkey, name, handle, created_at, updated_at)
       SELECT gen_random_uuid(), CASE WHEN i <= $3 THEN $1 ELSE '0x' || lpad(to_hex(i), 36, '0') || $5 END,
         $2 || '-' || i, 'Tagged ' || i, $2 || '-' || i, now() - make_interval(secs => i), now()
       FROM generate_series(1, $4::int) i`,
      [wallet, tag, centers, count, walletEnd],
    );
  }

  /** Inserts the trust edges `select` picks among the agents tagged `tag` (`a`: their ids and numbers n). */
  async function linkTagged(tag: string, select: string) {
    await app.database.sql.query(
      `WITH a AS (SELECT id, substring(handle from '-([0-9]+)$')::int AS n FROM agents WHERE agent_pubkey LIKE $1 || '-%')
       INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength) ${select}`,
      [tag],
    );
  }

  /** The edges out of the agents tagged `tag`, and the wallet's agents (the centers). */
  async function taggedGraph(tag: string, wallet: string): Promise<{ all: Edge[]; centers: string[] }> {
    const all = await app.database.sql.query<Edge>(
      `SELECT source_agent_id AS source, target_agent_id AS target, type, strength FROM trust_edges
       WHERE source_agent_id IN (SELECT id FROM agents WHERE agent_pubkey LIKE $1 || '-%')`,
      [tag],
    );
    const rows = await app.database.sql.query<{ id: string }>('SELECT id FROM agents WHERE owner_wallet = $1', [wallet]);
    return { all, centers: rows.map((row) => row.id) };
  }

  it('validates depth: 0 and 5 are 400, 1 and 4 work', async () => {
    const a = await agent();
    expect((await app.get(`/api/graph/connections?wallet=${a.account.address}&depth=0`)).status).toBe(400);
    expect((await app.get(`/api/graph/connections?wallet=${a.account.address}&depth=5`)).status).toBe(400);
    expect((await app.get(`/api/graph/connections?wallet=${a.account.address}&depth=1`)).status).toBe(200);
    expect((await app.get(`/api/graph/connections?wallet=${a.account.address}&depth=4`)).status).toBe(200);
    expect((await app.get(`/api/graph/connections?wallet=${a.account.address}`)).body.depth).toBe(2);
  });

  it('walks hops by depth and handles a cycle', async () => {
    const [a, b, c, d] = [await agent(), await agent(), await agent(), await agent()];
    // a -> b -> c -> a (a cycle) and c -> d
    await endorse(a.account, b.id);
    await endorse(b.account, c.id);
    await endorse(c.account, a.id);
    await endorse(c.account, d.id);
    const ids = (body: any) => body.nodes.map((n: any) => n.id).sort();
    const one = await app.get(`/api/graph/connections?wallet=${a.account.address}&depth=1`);
    expect(ids(one.body)).toEqual([a.id, b.id, c.id].sort());
    const two = await app.get(`/api/graph/connections?wallet=${a.account.address}&depth=2`);
    expect(ids(two.body)).toEqual([a.id, b.id, c.id, d.id].sort());
    expect(two.body.edges).toHaveLength(4);
    expect(two.body.edges[0]).toMatchObject({ type: 'trust', strength: 0.5 });
    expect(two.body.nodes[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        wallet_address: expect.any(String),
        handle: expect.any(String),
        tier: 'none',
        trust_score: expect.any(Number),
      }),
    );
    expect(two.body.truncated).toBe(false);
  });

  it('without a wallet shows a bounded view of the most trusted agents', async () => {
    const response = await app.get('/api/graph/connections');
    expect(response.status).toBe(200);
    expect(response.body.nodes.length).toBeLessThanOrEqual(50);
    const scores = response.body.nodes.map((n: any) => n.trust_score);
    expect(scores).toEqual([...scores].sort((x: number, y: number) => y - x));
  });

  it('caps a dense graph at depth 4 and says it was cut', async () => {
    const center = await agent();
    // 400 agents with 12 random edges each, written directly: the graph's shape is what matters here. No two
    // edges of an agent have the same strength, so which are its strongest does not depend on the index's order.
    await app.database.sql.query(
      `INSERT INTO agents (id, owner_wallet, agent_pubkey, name, handle, updated_at)
       SELECT gen_random_uuid(), '0x' || lpad(to_hex(i), 40, '0'), 'dense', 'Dense ' || i, 'dense-' || i, now()
       FROM generate_series(1, 400) i`,
    );
    await app.database.sql.query(
      `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength)
       SELECT s.id, t.id, 'trust', 0.05 + ((s.n * 31 + t.n * 17) % 997) / 1100.0 FROM
         (SELECT id, row_number() OVER (ORDER BY id) AS n FROM agents WHERE agent_pubkey = 'dense') s
         JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM agents WHERE agent_pubkey = 'dense') t
           ON t.n IN ((s.n * 7) % 400 + 1, (s.n * 13) % 400 + 1, (s.n * 17) % 400 + 1, (s.n * 31) % 400 + 1,
                      (s.n * 37) % 400 + 1, (s.n * 41) % 400 + 1, (s.n * 43) % 400 + 1, (s.n * 47) % 400 + 1,
                      (s.n * 53) % 400 + 1, (s.n * 59) % 400 + 1, (s.n * 61) % 400 + 1, (s.n * 67) % 400 + 1)
       WHERE s.id <> t.id
       ON CONFLICT DO NOTHING`,
    );
    await app.database.sql.query(
      `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength)
       SELECT $1::uuid, id, 'trust', 0.5 FROM agents WHERE agent_pubkey = 'dense' ORDER BY id LIMIT 5`,
      [center.id],
    );
    const response = await app.get(`/api/graph/connections?wallet=${center.account.address}&depth=4`);
    expect(response.status).toBe(200);
    expect(response.body.truncated).toBe(true);
    expect(response.body.nodes.length).toBe(200);
    const ids = new Set(response.body.nodes.map((n: any) => n.id));
    expect(response.body.edges.every((e: any) => ids.has(e.source) && ids.has(e.target))).toBe(true);

    // The walk reads each hop's edges from the strength indexes; at every depth it finds what walkByHand() does over all the
    // edges, read here.
    const all = await app.database.sql.query<Edge>(
      `SELECT source_agent_id AS source, target_agent_id AS target, type, strength FROM trust_edges e
       WHERE source_agent_id IN (SELECT id FROM agents WHERE agent_pubkey = 'dense') OR source_agent_id = $1`,
      [center.id],
    );
    // around the center and around some of the dense agents themselves (each its wallet's one agent; wallets of
    // decimal digits alone, as the API spells them)
    const dense = await app.database.sql.query<{ id: string; owner_wallet: string }>(
      `SELECT id, owner_wallet FROM agents WHERE agent_pubkey = 'dense' AND handle IN ('dense-1', 'dense-80', 'dense-256')`,
    );
    for (const [wallet, id] of [[center.account.address, center.id], ...dense.map((a) => [a.owner_wallet, a.id])]) {
      for (const depth of [1, 2, 3, 4]) {
        const graph = await app.get(`/api/graph/connections?wallet=${wallet}&depth=${depth}`);
        expect(graph.status, `${wallet} ${id} ${JSON.stringify(graph.body)}`).toBe(200);
        expectWalk(graph.body, walkByHand([id!], all, depth), `${wallet} at depth ${depth}`);
      }
    }
  });

  it('fills the graph exactly at the first hop, and says so only when a node beyond it is left out', async () => {
    // 8 centers each endorse 24 agents of their own: 8 + 192 = 200 nodes at the first hop. Each of
    // those endorses one agent more, which the second hop finds and cannot take.
    const wallet = newWallet().address;
    const tag = `fill-${Date.now().toString(36)}`;
    await taggedAgents(tag, wallet, 8, 392, 'f111');
    // agent i (9-200) is endorsed by center (i - 9) / 24 + 1 and endorses agent i + 192
    await linkTagged(
      tag,
      `SELECT s.id, t.id, 'trust', 0.1 + (t.n % 97) / 200.0 FROM a t
       JOIN a s ON (t.n BETWEEN 9 AND 200 AND s.n = (t.n - 9) / 24 + 1) OR (t.n > 200 AND s.n = t.n - 192)`,
    );
    const { all, centers } = await taggedGraph(tag, wallet);
    const one = (await app.get(`/api/graph/connections?wallet=${wallet}&depth=1`)).body;
    expect(one.nodes).toHaveLength(200);
    expect(one.truncated).toBe(false);
    expectWalk(one, walkByHand(centers, all, 1), 'depth 1');
    const two = (await app.get(`/api/graph/connections?wallet=${wallet}&depth=2`)).body;
    expect(two.nodes).toHaveLength(200);
    expect(two.truncated).toBe(true);
    expectWalk(two, walkByHand(centers, all, 2), 'depth 2');
  });

  it('follows at least 4 edges of each node however wide the frontier', async () => {
    // 100 centers leave room for 100 nodes: ceil(2 * 100 / 100) = 2, raised to 3, and the hop reads one more.
    // Center 1 endorses 6 agents, strongest first, the others one agent each, all weaker than those 6: 4 of
    // center 1's join, then 96 of the others'.
    const wallet = newWallet().address;
    const tag = `wide-${Date.now().toString(36)}`;
    await taggedAgents(tag, wallet, 100, 205, 'f222');
    // agents 101-106: center 1's, strength 0.99 down to 0.94; agents 107-205: center (i - 105)'s, 0.5
    await linkTagged(
      tag,
      `SELECT s.id, t.id, 'trust', CASE WHEN t.n <= 106 THEN 1.0 - (t.n - 100) / 100.0 ELSE 0.5 END
       FROM a t JOIN a s ON s.n = CASE WHEN t.n <= 106 THEN 1 ELSE t.n - 105 END WHERE t.n > 100`,
    );
    const { all, centers } = await taggedGraph(tag, wallet);
    const graph = (await app.get(`/api/graph/connections?wallet=${wallet}&depth=1`)).body;
    const joined = graph.nodes
      .map((node: any) => Number(node.handle.slice(tag.length + 1)))
      .filter((n: number) => n > 100 && n <= 106)
      .sort((x: number, y: number) => x - y);
    expect(joined).toEqual([101, 102, 103, 104]);
    expect(graph.nodes).toHaveLength(200);
    expect(graph.truncated).toBe(true);
    expectWalk(graph, walkByHand(centers, all, 1), 'depth 1');
  });

  it('follows fewer edges from each of many centers: 16 agents of one wallet follow their 24 strongest', async () => {
    // 16 centers leave room for 184 nodes: each follows ceil(2 * 184 / 16) = 23 edges, and the hop reads one
    // more. All 16 endorse the same 30 targets, target k with strength (k + 1) / 100, so the 24 strongest
    // targets join and the 6 weakest do not.
    const wallet = newWallet().address;
    const tag = `fan-${Date.now().toString(36)}`;
    await app.database.sql.query(
      `INSERT INTO agents (id, owner_wallet, agent_pubkey, name, handle, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2 || '-c' || i, 'Center ' || i, $2 || '-c' || i, now() - make_interval(secs => i), now()
       FROM generate_series(1, 16) i`,
      [wallet, tag],
    );
    await app.database.sql.query(
      `INSERT INTO agents (id, owner_wallet, agent_pubkey, name, handle, updated_at)
       SELECT gen_random_uuid(), '0x' || lpad(to_hex(i), 36, '0') || 'fa00', $1 || '-t' || i, 'Target ' || i, $1 || '-t' || i, now()
       FROM generate_series(0, 29) i`,
      [tag],
    );
    await app.database.sql.query(
      `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength)
       SELECT c.id, t.id, 'trust', (substring(t.handle from '-t([0-9]+)$')::int + 1) / 100.0
       FROM agents c JOIN agents t ON t.handle LIKE $1 || '-t%' WHERE c.owner_wallet = $2`,
      [tag, wallet],
    );
    const response = await app.get(`/api/graph/connections?wallet=${wallet}&depth=2`);
    expect(response.status).toBe(200);
    // the centers, oldest first
    const centers = await app.database.sql.query<{ id: string }>(
      'SELECT id FROM agents WHERE owner_wallet = $1 ORDER BY created_at, id',
      [wallet],
    );
    expect(response.body.center.agent_ids).toEqual(centers.map((row) => row.id));
    const targets = response.body.nodes
      .map((node: any) => node.handle as string)
      .filter((handle: string) => handle.startsWith(`${tag}-t`))
      .map((handle: string) => Number(handle.slice(`${tag}-t`.length)))
      .sort((x: number, y: number) => x - y);
    expect(targets).toEqual(Array.from({ length: 24 }, (_, k) => k + 6));
    expect(response.body.nodes).toHaveLength(16 + 24);
    expect(response.body.edges).toHaveLength(16 * 24);
  });

  it('follows at most 25 of a hub’s edges each way, strongest first, and says the rest were cut', async () => {
    // The center endorses agents 1-30 (strength falling with i) and is endorsed by agents 31-58: the first hop
    // reads 26 each way, follows 25 and flags the 26th.
    const wallet = newWallet().address;
    const tag = `hub-${Date.now().toString(36)}`;
    await taggedAgents(tag, wallet, 1, 59, 'f333');
    await linkTagged(
      tag,
      `SELECT CASE WHEN o.n <= 31 THEN c.id ELSE o.id END, CASE WHEN o.n <= 31 THEN o.id ELSE c.id END, 'trust', 1.0 - o.n / 100.0
       FROM a c JOIN a o ON o.n > 1 WHERE c.n = 1`,
    );
    const { all, centers } = await taggedGraph(tag, wallet); // every edge has a tagged source
    for (const depth of [1, 2]) {
      const graph = (await app.get(`/api/graph/connections?wallet=${wallet}&depth=${depth}`)).body;
      expect(graph.truncated).toBe(true);
      expect(graph.nodes).toHaveLength(51);
      expectWalk(graph, walkByHand(centers, all, depth), `depth ${depth}`);
    }
  });

  it('takes a wallet’s 200 oldest agents as the centers when it has more, and says it was cut', async () => {
    const wallet = newWallet().address;
    const tag = `many-${Date.now().toString(36)}`;
    // agents 1-205 are the wallet's (agent i created i seconds ago: 6-205 are the oldest 200), 206-215 others
    await taggedAgents(tag, wallet, 205, 215, 'f444');
    const response = await app.get(`/api/graph/connections?wallet=${wallet}&depth=1`);
    expect(response.status).toBe(200);
    const oldest = await app.database.sql.query<{ id: string }>(
      'SELECT id FROM agents WHERE owner_wallet = $1 ORDER BY created_at, id LIMIT 200',
      [wallet],
    );
    expect(response.body.center.agent_ids).toEqual(oldest.map((row) => row.id));
    expect(response.body.nodes).toHaveLength(200);
    expect(response.body.truncated).toBe(true);
    expect(response.body.limits.max_nodes).toBe(200);
  });

  it('answers 404 for a wallet without agents', async () => {
    expect((await app.get(`/api/graph/connections?wallet=${newWallet().address}`)).status).toBe(404);
  });
});

describe('GET /api/agents/{id}/public-profile', () => {
  it('serves by UUID and handle with the trust breakdown, cached 60 s, and shows changes at once', async () => {
    const subject = await agent({ bio: 'hello' });
    const byId = await app.get(`/api/agents/${subject.id}/public-profile`);
    expect(byId.status).toBe(200);
    expect(byId.headers.get('cache-control')).toBe('public, max-age=60');
    expect(byId.body).toMatchObject({
      agent: { id: subject.id, handle: subject.handle, bio: 'hello', tier: 'none', verification_status: 'unverified' },
      trust: { total: 0, verification: 0, reputation: 0, activity: 0, formula: expect.any(String) },
      attestations: [],
      skills: [],
    });
    expect((await app.get(`/api/agents/${subject.handle}/public-profile`)).body.agent.id).toBe(subject.id);
    await endorse(newWallet(), subject.id, 'security_audited');
    const after = await app.get(`/api/agents/${subject.handle}/public-profile`);
    expect(after.body.trust.total).toBe(12);
    expect(after.body.attestations).toEqual([{ attestation_type: 'security_audited', created_at: expect.any(String) }]);
    // a peer attestation and published skills (a draft, a hidden and a removed one not among them), newest first
    await app.database.sql.query(
      `INSERT INTO attestations (id, subject_agent_id, attester_wallet, verdict, weight, created_at)
       VALUES (gen_random_uuid(), $1, $2, 'positive', 3, '2030-01-02T03:04:05.678Z')`,
      [subject.id, newWallet().address.toLowerCase()],
    );
    await app.database.sql.query(
      `INSERT INTO skills (id, author_agent_id, author_wallet, name, description, category, pricing_type, status, family, created_at, hidden_at, removed_at)
       SELECT gen_random_uuid(), $1::uuid, $2, v.* FROM (VALUES ('Older', 'd', 'trading', 'free', 'active', 'a', now() - interval '1 day', NULL::timestamptz, NULL::timestamptz),
              ('Newer', 'd', 'security', 'paid', 'active', 'a', now(), NULL, NULL),
              ('Draft', 'd', 'social', 'free', 'draft', 'a', now(), NULL, NULL),
              ('Hidden', 'd', 'social', 'free', 'active', 'a', now(), now(), NULL),
              ('Removed', 'd', 'social', 'free', 'active', 'a', now(), NULL, now())) v`,
      [subject.id, subject.account.address],
    );
    const full = (await app.get(`/api/agents/${subject.id}/public-profile`)).body;
    expect(full.attestations).toEqual([
      { attestation_type: 'peer_attestation', verdict: 'positive', weight: 3, created_at: '2030-01-02T03:04:05.678Z' },
      { attestation_type: 'security_audited', created_at: after.body.attestations[0].created_at },
    ]);
    expect(full.attestations[1].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(full.skills).toEqual([
      { name: 'Newer', category: 'security', pricing_type: 'paid' },
      { name: 'Older', category: 'trading', pricing_type: 'free' },
    ]);
    expect((await app.get(`/api/agents/${crypto.randomUUID()}/public-profile`)).status).toBe(404);
    expect((await app.get('/api/agents/no-such-handle/public-profile')).status).toBe(404);
  });
});

describe('propagated trust (Sybil resistance)', () => {
  it('ranks a ring of fresh wallets endorsing each other below an agent endorsed by established ones', async () => {
    const established = [await agent(), await agent(), await agent()];
    for (const e of established) {
      await app.database.sql.query(`UPDATE agents SET created_at = now() - interval '400 days' WHERE id = $1`, [e.id]);
    }
    const honest = await agent();
    for (const e of established) await endorse(e.account, honest.id);
    const ring = [await agent(), await agent(), await agent(), await agent(), await agent()];
    // every ring member endorses every other with every type: many endorsements, no outside trust
    for (const from of ring) {
      for (const to of ring) {
        if (from === to) continue;
        for (const type of ['trusted', 'skill_verified', 'security_audited']) await endorse(from.account, to.id, type);
      }
    }
    // the propagate-trust job's run (the scheduler does not run in tests)
    await refreshAgentStats(app.database.sql);
    expect(await refreshPropagatedTrust(app.database.sql, { force: true })).toBeGreaterThan(8);
    const ringProfile = (await app.get(`/api/agents/${ring[0]!.id}/public-profile`)).body.trust;
    const honestProfile = (await app.get(`/api/agents/${honest.id}/public-profile`)).body.trust;
    // The spec's additive score rewards the ring...
    expect(ringProfile.total).toBeGreaterThan(honestProfile.total);
    // ...the propagated score does not.
    expect(honestProfile.propagated).toBeGreaterThan(ringProfile.propagated);
    expect(ringProfile.propagated).toBeLessThan(1);
  });

  it('runs again only when its inputs change: an agent, a trust edge, a tier, a verification or an age', async () => {
    const subject = await agent();
    const fresh = await agent();
    const runs = () => refreshPropagatedTrust(app.database.sql);
    // A change's notice reaches this process twice on PostgreSQL (with the statement, then from the listening
    // connection), so one change may start two runs back to back: runs until one has nothing to do.
    const settle = async () => {
      for (let i = 0; i < 20 && (await runs()) > 0; i++) await sleep(50);
      expect(await runs()).toBe(0);
    };
    await refreshAgentStats(app.database.sql);
    await refreshPropagatedTrust(app.database.sql, { force: true });
    await settle();
    // A change no score depends on: a bio, a price, the same tier and creation date.
    await app.database.sql.query(`UPDATE agents SET bio = 'edited', price_claw_per_call = 5 WHERE id = $1`, [subject.id]);
    await app.database.sql.query(`UPDATE agents SET tier = tier, created_at = created_at WHERE id = $1`, [subject.id]);
    await sleep(200);
    expect(await runs(), 'a bio, a price').toBe(0);
    const changes: [string, string, string][] = [
      ['a tier', `UPDATE agents SET tier = 'pro' WHERE id = $1`, subject.id],
      ['a verification', `UPDATE agents SET verified_at = now() WHERE id = $1`, subject.id],
      ['an age', `UPDATE agents SET created_at = now() - interval '90 days' WHERE id = $1`, fresh.id],
      ['a deletion', `DELETE FROM agents WHERE id = $1`, fresh.id],
    ];
    for (const [what, sql, id] of changes) {
      await app.database.sql.query(sql, [id]);
      expect(await runs(), what).toBeGreaterThan(0);
      await settle();
    }
    // A new agent, with no weight of its own, is an input (while no agent has a weight, every agent restarts alike).
    const endorser = await agent();
    expect(await runs(), 'a new agent').toBeGreaterThan(0);
    await settle();
    await endorse(endorser.account, subject.id);
    expect(await runs(), 'an endorsement').toBeGreaterThan(0);
    await settle();
    // Edges the ranking does not read: a first call between two agents (partnership), a completed job (collaboration).
    for (const type of ['partnership', 'collaboration']) {
      await app.database.sql.query(
        `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength) VALUES ($1, $2, $3, 0.1)`,
        [endorser.id, subject.id, type],
      );
      await app.database.sql.query(`UPDATE trust_edges SET strength = 0.2 WHERE source_agent_id = $1 AND type = $2`, [
        endorser.id,
        type,
      ]);
    }
    await sleep(200);
    expect(await runs(), 'a partnership or collaboration edge').toBe(0);
    await app.database.sql.query(`UPDATE trust_edges SET strength = 0.3 WHERE source_agent_id = $1 AND type = 'trust'`, [
      endorser.id,
    ]);
    expect(await runs(), 'a trust edge’s strength').toBeGreaterThan(0);
    await settle();
    await app.database.sql.query(`DELETE FROM trust_edges WHERE source_agent_id = $1 AND type <> 'trust'`, [endorser.id]);
    await sleep(200);
    expect(await runs(), 'partnership and collaboration edges removed').toBe(0);
    await app.database.sql.query(`DELETE FROM trust_edges WHERE source_agent_id = $1 AND type = 'trust'`, [endorser.id]);
    expect(await runs(), 'a trust edge removed').toBeGreaterThan(0);
    await settle();
    // An agent scored before the refresh job wrote its agent_stats row: the runs go on until its score is written.
    const newcomer = await agent();
    await endorse(subject.account, newcomer.id);
    const row = () => app.database.sql.query('SELECT propagated_trust FROM agent_stats WHERE agent_id = $1', [newcomer.id]);
    expect(await row()).toEqual([]);
    expect(await runs(), 'scored, not written').toBeGreaterThan(0);
    expect(await runs(), 'again, while its row is missing').toBeGreaterThan(0);
    await refreshAgentStats(app.database.sql);
    await runs();
    expect(Number((await row())[0]?.propagated_trust)).toBeGreaterThan(0);
    await settle();
  });
});

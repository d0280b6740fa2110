import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { hashSecret } from '../server/auth/credentials';
import { database } from '../server/core/db';
import { checkSpendPolicy, writeSpendPolicy } from '../server/credits/spend-policy';
import { startTestApp, type TestApp } from './harness';
import { clawBalance, fund } from './money';
import { startTarget } from './targets';
import { newWallet, signatureHeaders, signedAction } from './wallets';

// Spend policies per credential (docs/payments.md "Spend policies"): payee allowlist, per-call
// maximum, approval threshold with the owner's signed approval; enforced in callerPays for every spend.

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

/** Signs in with a spend policy named in the signed challenge; the token (and its API key) carry it. */
async function spender(policy: Record<string, unknown> | undefined, claw = 0) {
  const account = newWallet();
  const challenge = await app.post('/api/v1/auth/challenge', {
    owner_wallet: account.address,
    agent_pubkey: `pk-${account.address.slice(2, 12)}`,
    ...(policy ? { spend_policy: policy } : {}),
  });
  expect(challenge.status, challenge.text).toBe(200);
  const signature = await account.signMessage({ message: challenge.body.challenge });
  const verify = await app.post('/api/v1/auth/verify', { challenge_id: challenge.body.challenge_id, signature });
  expect(verify.status, verify.text).toBe(200);
  await app.post('/api/v1/agents', { agent_name: 'Spender' }, { token: verify.body.token });
  if (claw > 0) await fund(account.address, claw);
  return {
    account,
    token: verify.body.token as string,
    apiKey: verify.body.api_key as string,
    challengeText: challenge.body.challenge as string,
  };
}

/** A callable agent at the local target for `price` CLAW. */
async function callable(price: number, path = '/echo') {
  const me = await spender(undefined);
  const created = await app.post('/api/v1/agents', { agent_name: 'Payee' }, { token: me.token });
  const patched = await app.request('PATCH', `/api/v1/agents/${created.body.agent_id}`, {
    token: me.token,
    body: { is_callable: true, invoke_url: `${target.url}${path}`, price_claw_per_call: price },
  });
  expect(patched.status, patched.text).toBe(200);
  return { id: created.body.agent_id as string, owner: me.account, token: me.token };
}

const invoke = (agentId: string, token: string) => app.post(`/api/v1/agents/${agentId}/invoke`, { q: 1 }, { token });

async function decide(account: PrivateKeyAccount, approvalId: string, token: string, decision: 'approve' | 'reject') {
  const view = await app.get(`/api/v1/approvals/${approvalId}`, { token });
  expect(view.status, view.text).toBe(200);
  const signed = await signedAction(account, view.body[`${decision}_message`]);
  return { response: await app.post(`/api/v1/approvals/${approvalId}/${decision}`, signed), signed };
}

describe('spend policies', () => {
  it('names the policy in the signed sign-in text and lists it on the issued API key', async () => {
    const payee = newWallet().address;
    const me = await spender({ allowed_payees: [payee.toLowerCase()], max_claw_per_call: 5, approval_above_claw: 2 });
    expect(me.challengeText).toContain('Spend policy: payees');
    expect(me.challengeText).toContain('at most 5 CLAW per call, approval above 2 CLAW');
    const keys = await app.get('/api/list-api-keys', { token: me.token });
    expect(keys.status).toBe(200);
    expect(keys.body.keys[0].spend_policy).toEqual({
      allowed_payees: [payee],
      max_claw_per_call: 5,
      approval_above_claw: 2,
    });
  });

  it('moves the signed policy to the token and the first API key; a returning sign-in binds only its token', async () => {
    const account = newWallet();
    const signInWith = async (maxPerCall: number) => {
      const challenge = await app.post('/api/v1/auth/challenge', {
        owner_wallet: account.address,
        agent_pubkey: 'pk-returning',
        spend_policy: { max_claw_per_call: maxPerCall },
      });
      const signature = await account.signMessage({ message: challenge.body.challenge });
      const verify = await app.post('/api/v1/auth/verify', { challenge_id: challenge.body.challenge_id, signature });
      expect(verify.status, verify.text).toBe(200);
      return { challengeId: challenge.body.challenge_id as string, body: verify.body };
    };
    const first = await signInWith(5);
    const second = await signInWith(7);
    expect(first.body.api_key).toMatch(/^ck_/);
    expect(second.body.api_key).toBeNull();
    const idOf = async (table: string, column: string, secret: string) =>
      (await database().sql.query<{ id: string }>(`SELECT id FROM ${table} WHERE ${column} = $1`, [hashSecret(secret)]))[0]!.id;
    const credentials = {
      firstToken: await idOf('access_tokens', 'token_hash', first.body.token),
      key: await idOf('api_keys', 'key_hash', first.body.api_key),
      secondToken: await idOf('access_tokens', 'token_hash', second.body.token),
      firstChallenge: first.challengeId,
      secondChallenge: second.challengeId,
    };
    const rows = await database().sql.query<{ credential_id: string; max_per_call: string | number | bigint }>(
      'SELECT credential_id, max_per_call FROM spend_policies WHERE credential_id = ANY($1::uuid[])',
      [Object.values(credentials)],
    );
    const byCredential = Object.fromEntries(rows.map((row) => [row.credential_id, Number(row.max_per_call)]));
    expect(byCredential).toEqual({
      [credentials.firstToken]: 5_000_000,
      [credentials.key]: 5_000_000,
      [credentials.secondToken]: 7_000_000,
    });
  });

  it('refuses a payee outside the allowlist (invoke, job acceptance) and allows a listed one', async () => {
    const allowed = await callable(1, '/echo?allowed');
    const other = await callable(1, '/echo?other');
    const me = await spender({ allowed_payees: [allowed.id] }, 20);
    const before = target.calls.length;
    const refused = await invoke(other.id, me.token);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.code).toBe('payee_not_allowed');
    expect(refused.body.details.payee_agent_id).toBe(other.id);
    expect(target.calls.length).toBe(before);
    expect(await clawBalance(me.account.address)).toBe(20);
    const ok = await invoke(allowed.id, me.token);
    expect(ok.status, ok.text).toBe(200);
    expect(await clawBalance(me.account.address)).toBe(19);

    // A bounty goes to escrow (no payee yet); accepting names the payee, which must be listed.
    const posted = await app.post(
      '/api/v1/jobs',
      { title: 'Audit', description: 'Check a contract', bounty_claw: 5 },
      { token: me.token },
    );
    expect(posted.status, posted.text).toBe(201);
    const bidder = await spender(undefined);
    const bid = await app.post(
      `/api/v1/jobs/${posted.body.job_id}/bid`,
      { bid_claw: 5, eta_seconds: 60, proposal: 'I can' },
      { token: bidder.token },
    );
    expect(bid.status, bid.text).toBe(201);
    const accept = await app.post(`/api/v1/jobs/${posted.body.job_id}/accept`, { bid_id: bid.body.bid_id }, { token: me.token });
    expect(accept.status, accept.text).toBe(403);
    expect(accept.body.code).toBe('payee_not_allowed');
    expect((await app.get(`/api/v1/jobs/${posted.body.job_id}`)).body.status).toBe('bid');
  });

  it('refuses a spend above the per-call maximum (invoke, job post, pipeline creation), charging nothing', async () => {
    const pricey = await callable(3, '/echo?pricey');
    const me = await spender({ max_claw_per_call: 2 }, 600);
    const before = target.calls.length;
    const refused = await invoke(pricey.id, me.token);
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body.code).toBe('per_call_limit_exceeded');
    expect(refused.body.details).toMatchObject({ requested_claw: 3, max_claw_per_call: 2 });
    expect(target.calls.length).toBe(before);
    const job = await app.post('/api/v1/jobs', { title: 'Big', description: 'Too big', bounty_claw: 2.5 }, { token: me.token });
    expect(job.status).toBe(402);
    expect(job.body.code).toBe('per_call_limit_exceeded');
    const pipeline = await app.post(
      '/api/v1/pipelines',
      { name: 'P', trigger_type: 'manual', steps: [{ id: 's', name: 'S', agent_id: pricey.id, output_key: 's' }] },
      { token: me.token },
    );
    expect(pipeline.status).toBe(402);
    expect(pipeline.body.code).toBe('per_call_limit_exceeded');
    expect(await clawBalance(me.account.address)).toBe(600);
    const jobs = await app.database.sql.query('SELECT id FROM jobs WHERE lower(poster_wallet) = lower($1)', [me.account.address]);
    expect(jobs).toEqual([]);
  });

  it('holds a spend above the threshold for the owner’s signed approval; the retry uses it once', async () => {
    const agent = await callable(3, '/echo?approved');
    const me = await spender({ approval_above_claw: 2 }, 10);
    const before = target.calls.length;
    const held = await invoke(agent.id, me.token);
    expect(held.status, held.text).toBe(402);
    expect(held.body.code).toBe('approval_required');
    const approvalId = held.body.details.approval_id as string;
    expect(held.body.details).toMatchObject({ amount_claw: 3, approval_above_claw: 2, payee_agent_id: agent.id });
    // Asking again waits on the same approval; nothing was charged or forwarded.
    expect((await invoke(agent.id, me.token)).body.details.approval_id).toBe(approvalId);
    expect(target.calls.length).toBe(before);
    expect(await clawBalance(me.account.address)).toBe(10);

    const view = await app.get(`/api/v1/approvals/${approvalId}`, { token: me.token });
    expect(view.body).toMatchObject({ status: 'pending', amount_claw: 3, reason: 'invocation_charge' });
    expect(view.body.approve_message).toBe(`Approve spend ${approvalId}: 3 CLAW to agent ${agent.id}`);
    const listed = await app.get('/api/v1/approvals?status=pending', { token: me.token });
    expect(listed.body.approvals.map((a: any) => a.approval_id)).toEqual([approvalId]);

    // Another wallet's signature of the exact text decides nothing (object-level authorization).
    const stranger = newWallet();
    const forged = await signedAction(stranger, view.body.approve_message);
    const refused = await app.post(`/api/v1/approvals/${approvalId}/approve`, forged);
    expect(refused.status).toBe(401);
    // Another wallet's credential cannot even read it.
    expect((await app.get(`/api/v1/approvals/${approvalId}`, { token: agent.token })).status).toBe(404);
    expect((await app.get('/api/v1/approvals', { token: agent.token })).body.approvals).toEqual([]);
    // A signature of another text (the reject text) does not approve.
    const wrongText = await signedAction(me.account, view.body.reject_message);
    expect((await app.post(`/api/v1/approvals/${approvalId}/approve`, wrongText)).status).toBe(401);
    expect((await app.get(`/api/v1/approvals/${approvalId}`, { token: me.token })).body.status).toBe('pending');

    const { response: approved, signed } = await decide(me.account, approvalId, me.token, 'approve');
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.status).toBe('approved');
    // The same signed approval again: refused (single use), nothing changes.
    const replay = await app.post(`/api/v1/approvals/${approvalId}/approve`, signed);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('invalid_signature');

    const paid = await invoke(agent.id, me.token);
    expect(paid.status, paid.text).toBe(200);
    expect(await clawBalance(me.account.address)).toBe(7);
    expect((await app.get(`/api/v1/approvals/${approvalId}`, { token: me.token })).body.status).toBe('used');
    // The approval was spent: the next call waits for a new one.
    const again = await invoke(agent.id, me.token);
    expect(again.status).toBe(402);
    expect(again.body.details.approval_id).not.toBe(approvalId);
    expect(await clawBalance(me.account.address)).toBe(7);
  });

  it('spends one approval once under concurrent retries', async () => {
    const agent = await callable(3, '/echo?concurrent');
    const me = await spender({ approval_above_claw: 2 }, 30);
    const held = await invoke(agent.id, me.token);
    await decide(me.account, held.body.details.approval_id, me.token, 'approve');
    const answers = await Promise.all([1, 2, 3].map(() => invoke(agent.id, me.token)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) expect([402, 409]).toContain(refused.status);
    expect(await clawBalance(me.account.address)).toBe(27);
  });

  it('a rejected spend stays unpaid; a decided approval cannot be decided again', async () => {
    const agent = await callable(3, '/echo?rejected');
    const me = await spender({ approval_above_claw: 1 }, 10);
    const held = await invoke(agent.id, me.token);
    const approvalId = held.body.details.approval_id as string;
    const { response: rejected } = await decide(me.account, approvalId, me.token, 'reject');
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.status).toBe('rejected');
    const late = await signedAction(me.account, rejected.body.approve_message);
    const conflict = await app.post(`/api/v1/approvals/${approvalId}/approve`, late);
    expect(conflict.status).toBe(409);
    const retry = await invoke(agent.id, me.token);
    expect(retry.status).toBe(402);
    expect(retry.body.details.approval_id).not.toBe(approvalId);
    expect(await clawBalance(me.account.address)).toBe(10);
  });

  it('holds a job post and a pipeline (whose transaction rolls back) until approved', async () => {
    const agent = await callable(1, '/echo?pipe');
    const me = await spender({ approval_above_claw: 4 }, 600);
    const job = { title: 'Approved job', description: 'Needs approval', bounty_claw: 5 };
    const held = await app.post('/api/v1/jobs', job, { token: me.token });
    expect(held.status).toBe(402);
    expect(held.body.code).toBe('approval_required');
    const { response } = await decide(me.account, held.body.details.approval_id, me.token, 'approve');
    expect(response.status).toBe(200);
    const posted = await app.post('/api/v1/jobs', job, { token: me.token });
    expect(posted.status, posted.text).toBe(201);
    expect(await clawBalance(me.account.address)).toBe(595);

    const body = {
      name: 'Approved pipeline',
      trigger_type: 'manual',
      steps: [{ id: 's', name: 'S', agent_id: agent.id, output_key: 's' }],
    };
    const pending = await app.post('/api/v1/pipelines', body, { token: me.token });
    expect(pending.status).toBe(402);
    expect(pending.body.code).toBe('approval_required');
    // Recorded although the creation's transaction rolled back.
    const pipelineApproval = pending.body.details.approval_id as string;
    const view = await app.get(`/api/v1/approvals/${pipelineApproval}`, { token: me.token });
    expect(view.body).toMatchObject({ status: 'pending', amount_claw: 500, reason: 'pipeline_creation' });
    expect((await app.get('/api/v1/pipelines', { token: me.token })).body.pipelines).toEqual([]);
    await decide(me.account, pipelineApproval, me.token, 'approve');
    const created = await app.post('/api/v1/pipelines', body, { token: me.token });
    expect(created.status, created.text).toBe(201);
    expect(await clawBalance(me.account.address)).toBe(95);
  });

  it('applies to the invocations a pipeline run makes', async () => {
    const listed = await callable(1, '/echo?listed');
    const unlisted = await callable(1, '/echo?unlisted');
    const me = await spender({ allowed_payees: [listed.id] }, 510);
    const created = await app.post(
      '/api/v1/pipelines',
      {
        name: 'Two payees',
        trigger_type: 'manual',
        steps: [
          { id: 'a', name: 'A', agent_id: listed.id, output_key: 'a' },
          { id: 'b', name: 'B', agent_id: unlisted.id, output_key: 'b' },
        ],
      },
      { token: me.token },
    );
    expect(created.status, created.text).toBe(201);
    const run = await app.post(`/api/v1/pipelines/${created.body.pipeline_id}/run`, { payload: {} }, { token: me.token });
    expect(run.body.status).toBe('failed');
    expect(run.body.steps.map((s: any) => s.status)).toEqual(['succeeded', 'failed']);
    expect(run.body.steps[1].error).toContain('payee');
    expect(await clawBalance(me.account.address)).toBe(9);
  });

  it('applies through the MCP door (invoke_agent) as over REST', async () => {
    const agent = await callable(3, '/echo?mcp');
    const me = await spender({ max_claw_per_call: 2 }, 10);
    const refused = await app.post(
      '/api/v1/mcp',
      { tool: 'invoke_agent', input: { agent_id: agent.id, payload: {} } },
      { token: me.token },
    );
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body.code).toBe('per_call_limit_exceeded');
    expect(await clawBalance(me.account.address)).toBe(10);
  });

  it('sets a key’s policy at mint and by PATCH; a credential under a policy cannot loosen one', async () => {
    const owner = await spender(undefined);
    const agent = newWallet().address;
    const minted = await app.post(
      '/api/mint-api-key',
      { label: 'bot', spend_policy: { allowed_payees: [agent], max_claw_per_call: 1 } },
      { token: owner.token },
    );
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body.spend_policy).toEqual({ allowed_payees: [agent], max_claw_per_call: 1, approval_above_claw: null });
    const patched = await app.request('PATCH', `/api/v1/api-keys/${minted.body.key_id}`, {
      headers: await signatureHeaders(owner.account, `Update API key ${minted.body.key_id}`),
      body: { spend_policy: { allowed_payees: null, approval_above_claw: 0.5 } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.spend_policy).toEqual({ allowed_payees: null, max_claw_per_call: 1, approval_above_claw: 0.5 });

    // A token under a policy: its minted keys inherit it, and it cannot set or change one.
    const bound = await spender({ max_claw_per_call: 2 });
    const inherited = await app.post('/api/mint-api-key', { label: 'child' }, { token: bound.token });
    expect(inherited.body.spend_policy).toMatchObject({ max_claw_per_call: 2 });
    const loosen = await app.request('PATCH', `/api/v1/api-keys/${inherited.body.key_id}`, {
      token: bound.token,
      body: { spend_policy: { max_claw_per_call: null } },
    });
    expect(loosen.status).toBe(403);
    const mintLoose = await app.post(
      '/api/mint-api-key',
      { label: 'loose', spend_policy: { max_claw_per_call: 100 } },
      { token: bound.token },
    );
    expect(mintLoose.status).toBe(403);
    // Another wallet's key: 404.
    const other = await app.request('PATCH', `/api/v1/api-keys/${minted.body.key_id}`, {
      token: bound.token,
      body: { spend_policy: { max_claw_per_call: 1 } },
    });
    expect(other.status).toBe(404);
  });

  it('applies a policy written after the credential spent (the cached policy is dropped at once)', async () => {
    const credentialId = crypto.randomUUID();
    const payer = { wallet: newWallet().address, credentialId };
    const spend = { payee: null, amount: 5_000_000n, reason: 'invocation_charge' };
    // No policy yet: the spend passes (and that answer is kept by this instance).
    expect(await checkSpendPolicy(payer, spend, database().sql)).toBeNull();
    expect(await checkSpendPolicy(payer, spend, database().sql)).toBeNull();
    await writeSpendPolicy(credentialId, payer.wallet, { max_claw_per_call: 1_000_000n }, database().sql);
    await expect(checkSpendPolicy(payer, spend, database().sql)).rejects.toMatchObject({ code: 'per_call_limit_exceeded' });
    await database().sql.query('DELETE FROM spend_policies WHERE credential_id = $1::uuid', [credentialId]);
    expect(await checkSpendPolicy(payer, spend, database().sql)).toBeNull();
  });
});

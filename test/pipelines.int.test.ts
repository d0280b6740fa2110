import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emit } from '../server/events/emit';
import { runDueCronPipelines, runEventPipelines } from '../server/pipelines/triggers';
import { applyMapping, jsonLength, mappedLength, MappingError } from '../server/pipelines/mapping';
import { startTestApp, type TestApp } from './harness';
import { clawBalance, fund, assertLedgerBalanced } from './money';
import { startTarget } from './targets';
import { newWallet, signIn } from './wallets';
import { ApiError } from '../server/core/errors';
import { invokeAgent } from '../server/invoke/invoke-agent';

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

async function user(claw = 0, scopes?: string[]) {
  const account = newWallet();
  const session = await signIn(app, account, { scopes });
  const created = await app.post('/api/v1/agents', { agent_name: 'Pipeline user' }, { token: session.token });
  if (claw > 0) await fund(account.address, claw);
  return { address: account.address, token: session.token, agentId: created.body.agent_id as string };
}

async function agentAt(path: string, price = 0) {
  const owner = await user();
  const patched = await app.request('PATCH', `/api/v1/agents/${owner.agentId}`, {
    token: owner.token,
    body: { is_callable: true, invoke_url: `${target.url}${path}`, price_claw_per_call: price },
  });
  expect(patched.status).toBe(200);
  return { id: owner.agentId, owner };
}

const step = (id: string, agentId: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Step ${id}`,
  agent_id: agentId,
  output_key: id,
  ...extra,
});

describe('pipelines', () => {
  it('creates for 500 CLAW, runs three steps passing outputs along, and charges each step', async () => {
    const a = await agentAt('/echo?a', 1);
    const b = await agentAt('/echo?b', 2);
    const c = await agentAt('/echo?c', 0);
    const me = await user(510);
    const created = await app.post(
      '/api/v1/pipelines',
      {
        name: 'Three steps',
        trigger_type: 'manual',
        steps: [
          step('first', a.id, { input_mapping: { token: '/trigger/token', fixed: 7 } }),
          step('second', b.id, { input_mapping: { from_first: '/steps/first/echo/token', lit: { $literal: '/not-a-pointer' } } }),
          step('third', c.id),
        ],
      },
      { token: me.token },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'active', trigger_type: 'manual', creation_fee_claw: 500 });
    expect(await clawBalance(me.address)).toBe(10);
    const run = await app.post(
      `/api/v1/pipelines/${created.body.pipeline_id}/run`,
      { payload: { token: 'WETH' } },
      { token: me.token },
    );
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('succeeded');
    expect(run.body.steps.map((s: any) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(run.body.steps[0].input).toEqual({ token: 'WETH', fixed: 7 });
    expect(run.body.steps[1].input).toEqual({ from_first: 'WETH', lit: '/not-a-pointer' });
    // no mapping: the previous step's output
    expect(run.body.steps[2].input).toEqual(run.body.steps[1].output);
    expect(run.body.spent_claw).toBe(3);
    expect(await clawBalance(me.address)).toBe(7);
    expect(await clawBalance(a.owner.address)).toBe(1);
    expect(await clawBalance(b.owner.address)).toBe(2);
    const detail = await app.get(`/api/v1/pipelines/${created.body.pipeline_id}`, { token: me.token });
    expect(detail.body.recent_runs).toHaveLength(1);
    expect(detail.body.recent_runs[0].run_id).toBe(run.body.run_id);
    const list = await app.get('/api/v1/pipelines', { token: me.token });
    expect(list.body.pipelines.map((p: any) => p.pipeline_id)).toEqual([created.body.pipeline_id]);
  });

  it('stops at a failing middle step, refunds it, skips the rest and records every step', async () => {
    const a = await agentAt('/echo?x', 1);
    const failing = await agentAt('/fail', 2);
    const c = await agentAt('/echo?z', 1);
    const me = await user(505);
    const created = await app.post(
      '/api/v1/pipelines',
      { name: 'Fails', trigger_type: 'manual', steps: [step('one', a.id), step('two', failing.id), step('three', c.id)] },
      { token: me.token },
    );
    const before = target.calls.filter((call) => call.path === '/echo?z').length;
    const run = await app.post(`/api/v1/pipelines/${created.body.pipeline_id}/run`, { payload: { n: 1 } }, { token: me.token });
    expect(run.body.status).toBe('failed');
    expect(run.body.steps.map((s: any) => s.status)).toEqual(['succeeded', 'failed', 'skipped']);
    expect(run.body.steps[1].error).toContain('502');
    expect(run.body.error).toContain('step two failed');
    expect(target.calls.filter((call) => call.path === '/echo?z').length).toBe(before);
    expect(await clawBalance(me.address)).toBe(4);
  });

  it('stops before a step the run cannot pay, within max_spend_claw_per_run, and on a mapping that leads nowhere', async () => {
    const pricey = await agentAt('/echo?p', 5);
    const me = await user(503);
    const capped = await app.post(
      '/api/v1/pipelines',
      { name: 'Capped', trigger_type: 'manual', max_spend_claw_per_run: 4, steps: [step('s', pricey.id)] },
      { token: me.token },
    );
    const run = await app.post(`/api/v1/pipelines/${capped.body.pipeline_id}/run`, {}, { token: me.token });
    expect(run.body.status).toBe('failed');
    expect(run.body.steps[0].error).toContain('max_spend_claw_per_run');
    await fund(me.address, 500);
    const poor = await app.post(
      '/api/v1/pipelines',
      { name: 'Poor', trigger_type: 'manual', steps: [step('s', pricey.id)] },
      { token: me.token },
    );
    const unpaid = await app.post(`/api/v1/pipelines/${poor.body.pipeline_id}/run`, {}, { token: me.token });
    expect(unpaid.body.steps[0].error).toContain('402');
    const free = await agentAt('/echo?m', 0);
    await fund(me.address, 500);
    const broken = await app.post(
      '/api/v1/pipelines',
      { name: 'Broken', trigger_type: 'manual', steps: [step('s', free.id, { input_mapping: { x: '/trigger/missing' } })] },
      { token: me.token },
    );
    const failed = await app.post(`/api/v1/pipelines/${broken.body.pipeline_id}/run`, { payload: {} }, { token: me.token });
    expect(failed.body.steps[0].error).toContain('resolves to nothing');
  });

  it('a mapping naming a 1 MiB output hundreds of times fails its step before building the input, and sends nothing', async () => {
    const big = await agentAt('/big?bytes=1000000');
    const next = await agentAt('/echo?after-big');
    const me = await user(500);
    const references = Array.from({ length: 700 }, () => '/steps/b');
    const created = await app.post(
      '/api/v1/pipelines',
      {
        name: 'Amplifier',
        trigger_type: 'manual',
        steps: [step('b', big.id), step('n', next.id, { input_mapping: { copies: references } })],
      },
      { token: me.token },
    );
    expect(created.status).toBe(201);
    const heapBefore = process.memoryUsage().heapUsed;
    const run = await app.post(`/api/v1/pipelines/${created.body.pipeline_id}/run`, {}, { token: me.token });
    expect(run.body.status).toBe('failed');
    expect(run.body.steps.map((s: any) => s.status)).toEqual(['succeeded', 'failed']);
    expect(run.body.steps[0].output).toEqual({ truncated: true, size_bytes: 1_000_000 });
    expect(run.body.steps[1].error).toMatch(/larger than 1 MiB/);
    expect(run.body.steps[1].input).toBeNull();
    expect(target.calls.filter((call) => call.path === '/echo?after-big')).toHaveLength(0);
    // The 700 MB input was never built (a few MB of garbage at most remain).
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024);

    // Within the limit, the same references still work.
    await fund(me.address, 500);
    const small = await agentAt('/big?bytes=1000');
    const fine = await app.post(
      '/api/v1/pipelines',
      {
        name: 'Copies',
        trigger_type: 'manual',
        steps: [step('b', small.id), step('n', next.id, { input_mapping: { copies: references } })],
      },
      { token: me.token },
    );
    const ok = await app.post(`/api/v1/pipelines/${fine.body.pipeline_id}/run`, {}, { token: me.token });
    expect(ok.body.status).toBe('succeeded');
    expect(ok.body.steps[1].input).toEqual({
      truncated: true,
      size_bytes: JSON.stringify({ copies: references.map(() => ({ blob: 'x'.repeat(989) })) }).length,
    });
  });

  it('refuses bad definitions (400), no fee (402), missing scope (403), and another wallet (404)', async () => {
    const a = await agentAt('/echo?v');
    const me = await user(499);
    const valid = { name: 'V', trigger_type: 'manual', steps: [step('s', a.id)] };
    expect((await app.post('/api/v1/pipelines', valid, { token: me.token })).status).toBe(402);
    await fund(me.address, 1000);
    const bad = [
      { ...valid, steps: [] },
      { ...valid, steps: Array.from({ length: 11 }, (_, i) => step(`s${i}`, a.id)) },
      { ...valid, steps: [step('s', a.id), step('s', a.id)] },
      { ...valid, steps: [step('s', crypto.randomUUID())] },
      { ...valid, trigger_type: 'cron', cron_expression: 'every minute' },
      { ...valid, trigger_type: 'cron', cron_expression: '* * * * * *' },
      { ...valid, trigger_type: 'cron' },
      { ...valid, trigger_type: 'sse_event', trigger_event: 'agent.invoked' },
      { ...valid, trigger_type: 'sse_event' },
      { ...valid, trigger_filter: { a: 1 } },
      { ...valid, steps: [step('s', a.id, { input_mapping: { big: 'x'.repeat(9000) } })] },
      { ...valid, trigger_type: 'webhook' },
    ];
    for (const body of bad)
      expect((await app.post('/api/v1/pipelines', body, { token: me.token })).status, JSON.stringify(body).slice(0, 80)).toBe(
        400,
      );
    expect(await clawBalance(me.address)).toBe(1499);
    const limited = await user(1000, ['agents.read', 'agents.register']);
    expect((await app.post('/api/v1/pipelines', valid, { token: limited.token })).status).toBe(403);
    expect((await app.post('/api/v1/pipelines', valid)).status).toBe(401);

    const created = await app.post('/api/v1/pipelines', valid, { token: me.token });
    const id = created.body.pipeline_id;
    const other = await user(10);
    expect((await app.get(`/api/v1/pipelines/${id}`, { token: other.token })).status).toBe(404);
    expect((await app.post(`/api/v1/pipelines/${id}/run`, {}, { token: other.token })).status).toBe(404);
    expect(
      (await app.request('PATCH', `/api/v1/pipelines/${id}`, { token: other.token, body: { status: 'paused' } })).status,
    ).toBe(404);
    expect((await app.request('DELETE', `/api/v1/pipelines/${id}`, { token: other.token })).status).toBe(404);
    expect((await app.get('/api/v1/pipelines', { token: other.token })).body.total).toBe(0);
    expect((await app.get(`/api/v1/pipelines/${crypto.randomUUID()}`, { token: me.token })).status).toBe(404);
  });

  it('ignores step fields the spec does not list, as every other body does', async () => {
    const a = await agentAt('/echo?extra');
    const me = await user(500);
    const created = await app.post(
      '/api/v1/pipelines',
      { name: 'Extra', trigger_type: 'manual', steps: [step('s', a.id, { description: 'first step', retries: 2 })] },
      { token: me.token },
    );
    expect(created.status).toBe(201);
    expect(created.body.steps).toEqual([{ id: 's', name: 'Step s', agent_id: a.id, output_key: 's' }]);
  });

  it('pauses (runs refused with 409), resumes and deletes', async () => {
    const a = await agentAt('/echo?pause');
    const me = await user(500);
    const created = await app.post(
      '/api/v1/pipelines',
      { name: 'P', trigger_type: 'manual', steps: [step('s', a.id)] },
      { token: me.token },
    );
    const id = created.body.pipeline_id;
    const paused = await app.request('PATCH', `/api/v1/pipelines/${id}`, { token: me.token, body: { status: 'paused' } });
    expect(paused.body.status).toBe('paused');
    expect((await app.post(`/api/v1/pipelines/${id}/run`, {}, { token: me.token })).status).toBe(409);
    await app.request('PATCH', `/api/v1/pipelines/${id}`, { token: me.token, body: { status: 'active' } });
    expect((await app.post(`/api/v1/pipelines/${id}/run`, {}, { token: me.token })).status).toBe(200);
    expect((await app.request('DELETE', `/api/v1/pipelines/${id}`, { token: me.token })).body).toEqual({
      pipeline_id: id,
      deleted: true,
    });
    expect((await app.get(`/api/v1/pipelines/${id}`, { token: me.token })).status).toBe(404);
    expect((await app.post(`/api/v1/pipelines/${id}/run`, {}, { token: me.token })).status).toBe(404);
  });

  it('fires a cron pipeline on a test clock, once per tick, not while paused', async () => {
    const a = await agentAt('/echo?cron', 1);
    const me = await user(510);
    const created = await app.post(
      '/api/v1/pipelines',
      { name: 'Cron', trigger_type: 'cron', cron_expression: '*/5 * * * *', steps: [step('tick', a.id)] },
      { token: me.token },
    );
    expect(created.status).toBe(201);
    const next = new Date(created.body.next_run_at);
    expect(next.getUTCMinutes() % 5).toBe(0);
    const id = created.body.pipeline_id;
    expect(await runDueCronPipelines(new Date(next.getTime() - 1000))).toBe(0);
    expect(await runDueCronPipelines(new Date(next.getTime() + 1000))).toBe(1);
    expect(await runDueCronPipelines(new Date(next.getTime() + 2000))).toBe(0);
    const detail = await app.get(`/api/v1/pipelines/${id}`, { token: me.token });
    expect(detail.body.recent_runs).toHaveLength(1);
    expect(detail.body.recent_runs[0]).toMatchObject({ trigger: 'cron', status: 'succeeded', spent_claw: 1 });
    expect(new Date(detail.body.next_run_at).getTime()).toBe(next.getTime() + 5 * 60_000);
    await app.request('PATCH', `/api/v1/pipelines/${id}`, { token: me.token, body: { status: 'paused' } });
    expect(await runDueCronPipelines(new Date(next.getTime() + 60 * 60_000))).toBe(0);
    // the expression may also come in trigger_event
    await fund(me.address, 500);
    const viaEvent = await app.post(
      '/api/v1/pipelines',
      { name: 'Cron2', trigger_type: 'cron', trigger_event: '0 * * * *', steps: [step('tick', a.id)] },
      { token: me.token },
    );
    expect(viaEvent.body.cron_expression).toBe('0 * * * *');
  });

  it('runs an sse_event pipeline for each matching event, with the event as payload', async () => {
    const a = await agentAt('/echo?event');
    const me = await user(1000);
    await app.database.sql.query(`UPDATE agents SET tier = 'pro' WHERE id = $1`, [me.agentId]);
    const created = await app.post(
      '/api/v1/pipelines',
      {
        name: 'On security skills',
        trigger_type: 'sse_event',
        trigger_event: 'skill.published',
        trigger_filter: { category: 'security' },
        steps: [step('notify', a.id, { input_mapping: { skill: '/trigger/data/name' } })],
      },
      { token: me.token },
    );
    expect(created.status).toBe(201);
    await runEventPipelines();
    const publish = (category: string, name: string) =>
      app.post('/api/skills', { name, description: 'A skill', category }, { token: me.token });
    expect((await publish('security', 'Audit helper alpha')).status).toBe(201);
    expect((await publish('trading', 'Trading helper beta')).status).toBe(201);
    expect(await runEventPipelines()).toBe(1);
    expect(await runEventPipelines()).toBe(0);
    const detail = await app.get(`/api/v1/pipelines/${created.body.pipeline_id}`, { token: me.token });
    expect(detail.body.recent_runs).toHaveLength(1);
    expect(detail.body.recent_runs[0].trigger).toBe('sse_event');
    expect(detail.body.recent_runs[0].steps[0].input).toEqual({ skill: 'Audit helper alpha' });
  });

  it('fires only on events its owner may see, never on another wallet’s private event', async () => {
    const a = await agentAt('/echo?private');
    const me = await user(1000);
    const other = await user();
    const created = await app.post(
      '/api/v1/pipelines',
      {
        name: 'On any job',
        trigger_type: 'sse_event',
        trigger_event: 'job.posted',
        steps: [step('notify', a.id, { input_mapping: { title: '/trigger/data/title' } })],
      },
      { token: me.token },
    );
    expect(created.status).toBe(201);
    await runEventPipelines();
    // The event log may hold a private event under a name a pipeline can listen to; the owner's
    // audience decides, as for the stream and webhooks (docs/events.md).
    const sql = app.database.sql;
    await emit('job.posted', { title: 'Secret of the other' }, sql, { audience: [other.address] });
    await emit('job.posted', { title: 'Mine' }, sql, { audience: [me.address] });
    await emit('job.posted', { title: 'Everyone' }, sql);
    await runEventPipelines();
    const detail = await app.get(`/api/v1/pipelines/${created.body.pipeline_id}`, { token: me.token });
    const titles = detail.body.recent_runs.map((run: { steps: { input: { title: string } }[] }) => run.steps[0]!.input.title);
    expect(titles.sort()).toEqual(['Everyone', 'Mine']);
  });
});

describe('the price a pipeline owner pays is the price it saw', () => {
  it('a price raised after creation never charges an event pipeline’s owner more than it saw (bait and switch)', async () => {
    const bait = await agentAt('/echo?bait', 0.01);
    const victim = await user(20_500);
    const created = await app.post(
      '/api/v1/pipelines',
      { name: 'On every job', trigger_type: 'sse_event', trigger_event: 'job.posted', steps: [step('cheap', bait.id)] },
      { token: victim.token },
    );
    expect(created.status).toBe(201);
    // Event-triggered without a cap of its own: capped at its creation-time cost.
    expect(created.body.max_spend_claw_per_run).toBe(0.01);
    await runEventPipelines();
    const raised = await app.request('PATCH', `/api/v1/agents/${bait.id}`, {
      token: bait.owner.token,
      body: { price_claw_per_call: 5000 },
    });
    expect(raised.body).toMatchObject({ price_claw_per_call: 0.01, price_pending_claw: 5000 });
    // The notice period has passed (moved back rather than waited for).
    await app.database.sql.query(`UPDATE agents SET price_effective_at = now() - interval '1 second' WHERE id = $1`, [bait.id]);
    // The attacker posts public jobs to trigger the victim's pipeline.
    await fund(bait.owner.address, 100);
    for (const title of ['Bait one', 'Bait two']) {
      const job = await app.post(
        '/api/v1/jobs',
        { title, description: 'Trigger the pipeline', required_skill: 'security', bounty_claw: 1 },
        { token: bait.owner.token },
      );
      expect(job.status).toBe(201);
    }
    const before = await clawBalance(victim.address);
    await runEventPipelines();
    expect(await clawBalance(victim.address)).toBe(before);
    expect(await clawBalance(bait.owner.address)).toBe(98);
    const detail = await app.get(`/api/v1/pipelines/${created.body.pipeline_id}`, { token: victim.token });
    expect(detail.body.recent_runs).toHaveLength(2);
    for (const run of detail.body.recent_runs) {
      expect(run).toMatchObject({ status: 'failed', spent_claw: 0 });
      expect(run.steps[0].error).toContain('price_changed');
      expect(run.steps[0].invocation_id).toBeNull();
    }
    // The owner is told, privately.
    const stopped = await app.database.sql.query<{ data: any; audience: string[] }>(
      `SELECT data, audience FROM events WHERE name = 'pipeline.run_stopped' AND data->>'pipeline_id' = $1`,
      [created.body.pipeline_id],
    );
    expect(stopped).toHaveLength(2);
    expect(stopped[0]).toMatchObject({
      audience: [victim.address.toLowerCase()],
      data: { reason: 'price_changed', step_id: 'cheap', agent_id: bait.id, price_claw: 5000, max_price_claw: 0.01 },
    });
  });

  it('stops a manual run at a step whose price rose since creation, even with a generous max_spend_claw_per_run', async () => {
    const first = await agentAt('/echo?kept', 1);
    const second = await agentAt('/echo?raised', 1);
    const me = await user(600);
    const created = await app.post(
      '/api/v1/pipelines',
      {
        name: 'Two steps',
        trigger_type: 'manual',
        max_spend_claw_per_run: 100,
        steps: [step('one', first.id), step('two', second.id)],
      },
      { token: me.token },
    );
    await app.database.sql.query(
      `UPDATE agents SET price_pending = 50000000, price_effective_at = now() - interval '1 second' WHERE id = $1`,
      [second.id],
    );
    const run = await app.post(`/api/v1/pipelines/${created.body.pipeline_id}/run`, {}, { token: me.token });
    expect(run.body).toMatchObject({ status: 'failed', spent_claw: 1 });
    expect(run.body.steps.map((s: any) => s.status)).toEqual(['succeeded', 'failed']);
    expect(run.body.error).toContain('price_changed');
    expect(await clawBalance(me.address)).toBe(99);
  });
});

describe('every spend of a credential counts against its own daily limit', () => {
  it('holds the creating token’s max_spend_claw_per_day on event- and cron-triggered runs', async () => {
    const paid = await agentAt('/echo?limited', 2);
    for (const trigger of ['sse_event', 'cron'] as const) {
      // 501 a day: the 500 CLAW creation fee leaves 1 for the runs.
      const account = newWallet();
      const session = await signIn(app, account, { maxSpend: 501 });
      await app.post('/api/v1/agents', { agent_name: 'Limited owner' }, { token: session.token });
      await fund(account.address, 510);
      const created = await app.post(
        '/api/v1/pipelines',
        {
          name: `Limited ${trigger}`,
          trigger_type: trigger,
          ...(trigger === 'cron' ? { cron_expression: '* * * * *' } : { trigger_event: 'job.posted' }),
          max_spend_claw_per_run: 10,
          steps: [step('paid', paid.id)],
        },
        { token: session.token },
      );
      expect(created.status).toBe(201);
      if (trigger === 'sse_event') {
        await runEventPipelines();
        await emit('job.posted', { title: 'Anything' }, app.database.sql);
        await runEventPipelines();
      } else {
        await runDueCronPipelines(new Date(Date.now() + 120_000));
      }
      const detail = await app.get(`/api/v1/pipelines/${created.body.pipeline_id}`, { token: session.token });
      expect(detail.body.recent_runs[0].steps[0].error, trigger).toContain('daily_limit_exceeded');
      expect(await clawBalance(account.address)).toBe(10);
    }
  });
});

describe('input mapping', () => {
  it('resolves JSON pointers with escapes and refuses prototype tricks', () => {
    const context = { trigger: { 'a/b': { '~x': [10, 20] } }, steps: {} };
    expect(applyMapping({ v: '/trigger/a~1b/~0x/1' }, context)).toEqual({ v: 20 });
    expect(() => applyMapping('/trigger/a~1b/~0x/2', context)).toThrow(MappingError);
    expect(() => applyMapping('/trigger/constructor', context)).toThrow(MappingError);
    expect(() => applyMapping('/trigger/__proto__', context)).toThrow(MappingError);
    expect(applyMapping({ $literal: '/x' }, context)).toBe('/x');
  });

  it('counts the size of a mapped input exactly, from its references, without building it', () => {
    const context = {
      trigger: { token: 'WETH', n: 1.5, list: [1, null, 'a"b', { deep: ['é', '\u2028'] }], 'a/b': true },
      steps: { first: { out: 'x'.repeat(100), nested: { k: [1, 2, 3] } } },
    };
    fc.assert(
      fc.property(
        fc.letrec((tie) => ({
          mapping: fc.oneof(
            { depthSize: 'small' },
            fc.constantFrom(
              '/trigger/token',
              '/trigger/list',
              '/trigger/a~1b',
              '/steps/first',
              '/steps/first/nested/k/2',
              '/trigger',
            ),
            fc.string(),
            fc.jsonValue().map((v) => ({ $literal: v })),
            fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
            fc.array(tie('mapping'), { maxLength: 5 }),
            fc.dictionary(fc.string(), tie('mapping'), { maxKeys: 5 }),
          ),
        })).mapping,
        (mapping) => {
          let built: unknown;
          try {
            built = applyMapping(mapping, context);
          } catch (error) {
            expect(error).toBeInstanceOf(MappingError);
            expect(() => mappedLength(mapping, context, Number.POSITIVE_INFINITY)).toThrow(MappingError);
            return;
          }
          const length = JSON.stringify(built ?? null).length;
          expect(mappedLength(mapping, context, Number.POSITIVE_INFINITY)).toBe(length);
          const memo = new Map<unknown, number>();
          expect(mappedLength(mapping, context, Number.POSITIVE_INFINITY, memo)).toBe(length);
          expect(mappedLength(mapping, context, Number.POSITIVE_INFINITY, memo)).toBe(length);
          expect(jsonLength(built, Number.POSITIVE_INFINITY)).toBe(length);
          // With a budget it stops early: past the budget, the answer is only "more".
          if (length > 10) expect(mappedLength(mapping, context, 10)).toBeGreaterThan(10);
        },
      ),
      { seed: 20261124, numRuns: 500 },
    );
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

describe('per-wallet limits hold under concurrent creates', () => {
  it('never lets a wallet past 50 pipelines, and charges only the pipelines created', async () => {
    const me = await probeAgent();
    await fund(me.account.address, 500 * 60);
    const body = (n: number) => ({
      name: `P${n}`,
      trigger_type: 'manual',
      steps: [{ id: 's', name: 'S', agent_id: me.agentId, output_key: 's' }],
    });
    for (let n = 0; n < 45; n++) {
      const r = await app.post('/api/v1/pipelines', body(n), { token: me.token });
      expect(r.status, r.text).toBe(201);
    }
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, n) => app.post('/api/v1/pipelines', body(100 + n), { token: me.token })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409)).toHaveLength(10);
    const [count] = await app.database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pipelines WHERE owner_wallet = $1 AND status <> 'deleted'`,
      [me.account.address],
    );
    expect(count!.n).toBe(50);
    expect(await clawBalance(me.account.address)).toBe(500 * 10);
    await assertLedgerBalanced();
  }, 60_000);
});

describe('pipelines: max_spend_claw_per_run', () => {
  // A run reads each step's price to check the cap, then the router charges the price it reads
  // itself: a seller who raises the price between the two reads (or an instance whose cache still
  // has the old one) would take more than the cap. The router now checks the cap at the charge.
  it('the router refuses a charge above the cap the run passes it, charging and forwarding nothing', async () => {
    const target = await startTarget();
    try {
      const seller = await probeAgent();
      const patched = await app.request('PATCH', `/api/v1/agents/${seller.agentId}`, {
        token: seller.token,
        body: { is_callable: true, invoke_url: `${target.url}/echo`, price_claw_per_call: 5 },
      });
      expect(patched.status).toBe(200);
      const me = await probeAgent();
      await fund(me.account.address, 10);
      const caller = {
        via: 'bearer' as const,
        wallet: me.account.address,
        agentId: me.agentId,
        agentPubkey: null,
        scopes: ['agents.invoke'],
        credentialId: null,
        maxSpendPerDay: null,
      };
      const refused = await invokeAgent(caller, {
        target: seller.agentId,
        payload: {},
        timeoutMs: 3000,
        family: 'b',
        maxFee: 2_000_000n,
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      // The cap a run passes is the most it may pay: a higher price is refused as price_changed (409).
      expect((refused as ApiError).status).toBe(409);
      expect((refused as ApiError).code).toBe('price_changed');
      expect(await clawBalance(me.account.address)).toBe(10);
      expect(target.calls).toHaveLength(0);
      const paid = await invokeAgent(caller, {
        target: seller.agentId,
        payload: {},
        timeoutMs: 3000,
        family: 'b',
        maxFee: 5_000_000n,
      });
      expect(paid.fee).toBe(5_000_000n);
      expect(await clawBalance(me.account.address)).toBe(5);
      await assertLedgerBalanced();
    } finally {
      await target.close();
    }
  });
});

// Crash at any point, lose nothing (issue 23, item 1; docs/reliability.md). A mixed money workload runs
// over real HTTP against a real server process (test/chaos/chaos-server.ts) on PGlite or PostgreSQL,
// while the process is sent SIGKILL at random moments (seeded; the seed is printed). After each kill:
// the server's anvil must be gone (no orphan), the database is opened from outside (PGlite: its data
// directory, reopened after the kill) and every invariant is checked; then the server restarts on the
// same data and the workload goes on. Used by test/chaos.int.test.ts (short, CI) and `npm run chaos`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createWalletClient, erc20Abi, http, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { openDatabase, parsePostgresUrl, type Database } from '../../server/core/db/open';
import type { SqlRunner } from '../../server/core/db/sql-runner';
import { MISCOUNTED_WALLETS_SQL } from '../../server/stats/wallet-invocations';
import { devnetChain } from '../../server/chain/viem-chain';
import { freePort } from '../../e2e/server-process';
import { seedPgliteDataDir } from '../load/seed-pglite';
import { call, type Answer } from '../load/http-client';

export interface ChaosOptions {
  kills: number;
  seed: number;
  /** PostgreSQL base URL; unset: PGlite in a fresh DATA_DIR. */
  databaseUrl?: string;
  /** Random pause before each kill, in ms. */
  minUptimeMs?: number;
  maxUptimeMs?: number;
  /** Workload loops running at once. */
  concurrency?: number;
  /** Stakes on one signal before it is resolved (the issue's 1,000 in `npm run chaos`). */
  stakesPerSignal?: number;
  /** Soak (npm run soak): run the workload this long with no kills, sampling RSS and health latency each minute. */
  soakMs?: number;
  /** A migrated PGlite data directory dump (test/global-setup.ts) to start from, instead of initdb. */
  pgliteTemplate?: string;
  log?: (line: string) => void;
}

export interface ChaosReport {
  seed: number;
  kills: number;
  acknowledged: number;
  byKind: Record<string, number>;
  refused: Record<string, number>;
  serverErrors: string[];
  violations: string[];
  webhookEvents: number;
  orphanedAnvils: number;
  /** Soak samples: per minute, the server's RSS (MB) and health p99 (ms). */
  minutes: { minute: number; rssMb: number; healthP99Ms: number; acknowledged: number }[];
  /** Soak: every health latency (ms) measured, per minute. */
  healthLatencies: number[][];
}

/** mulberry32: a small seeded PRNG, so a run can be replayed from its printed seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pids of processes whose command line mentions `needle` (Linux /proc). */
export function processesMentioning(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) found.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return found;
}

interface Actor {
  key: Hex;
  account: PrivateKeyAccount;
  token: string;
  agentId: string;
}

interface Acked {
  kind: 'job' | 'bid' | 'accept' | 'submit' | 'signal' | 'stake' | 'invocation' | 'deposit';
  id: string;
  detail?: string;
}

/** The invariants of issue 23 item 1, in SQL, on a database the server is not using. */
export async function checkInvariants(sql: SqlRunner, acked: Acked[]): Promise<string[]> {
  const problems: string[] = [];
  const one = async <T>(text: string, params: unknown[] = []) => (await sql.query<T>(text, params))[0];
  const total = await one<{ total: string | null }>('SELECT sum(balance)::text AS total FROM ledger_accounts');
  if (BigInt(total?.total ?? '0') !== 0n) problems.push(`accounts sum to ${total?.total}, not 0`);
  const unbalanced = await sql.query(
    'SELECT transaction_id FROM ledger_postings GROUP BY transaction_id HAVING sum(amount) <> 0 LIMIT 3',
  );
  if (unbalanced.length) problems.push(`transactions not summing to zero: ${JSON.stringify(unbalanced)}`);
  const drift = await sql.query(
    `SELECT a.id, a.balance::text FROM ledger_accounts a
       LEFT JOIN (SELECT account_id, sum(amount) AS s FROM ledger_postings GROUP BY account_id) p ON p.account_id = a.id
      WHERE a.balance <> coalesce(p.s, 0) LIMIT 3`,
  );
  if (drift.length) problems.push(`balances differ from their postings: ${JSON.stringify(drift)}`);
  const negative = await sql.query(`SELECT id FROM ledger_accounts WHERE balance < 0 AND NOT allow_negative LIMIT 3`);
  if (negative.length) problems.push(`overdrawn: ${JSON.stringify(negative)}`);

  // Every hold is tied to an open object, with exactly what that object escrows, or is released (0).
  const jobHolds = await sql.query<{ id: string; status: string; bounty: string; held: string }>(
    `SELECT j.id, j.status, j.bounty::text, coalesce(a.balance, 0)::text AS held
       FROM jobs j LEFT JOIN ledger_accounts a ON a.id = 'hold:job:' || j.id
      WHERE (j.status IN ('open', 'bid', 'executing') AND coalesce(a.balance, 0) <> j.bounty)
         OR (j.status NOT IN ('open', 'bid', 'executing') AND coalesce(a.balance, 0) <> 0) LIMIT 3`,
  );
  if (jobHolds.length) problems.push(`job holds not matching their jobs: ${JSON.stringify(jobHolds)}`);
  const signalHolds = await sql.query<{ id: string }>(
    `SELECT s.id, s.status, (s.stake + s.agree_total + s.disagree_total)::text AS escrowed, coalesce(a.balance, 0)::text AS held
       FROM signals s LEFT JOIN ledger_accounts a ON a.id = 'hold:signal:' || s.id
      WHERE (s.status IN ('open', 'pending_resolution', 'disputed') AND coalesce(a.balance, 0) <> s.stake + s.agree_total + s.disagree_total)
         OR (s.status NOT IN ('open', 'pending_resolution', 'disputed') AND coalesce(a.balance, 0) <> 0) LIMIT 3`,
  );
  if (signalHolds.length) problems.push(`signal holds not matching their signals: ${JSON.stringify(signalHolds)}`);
  const stakeSums = await sql.query(
    `SELECT s.id FROM signals s LEFT JOIN (SELECT signal_id, sum(amount) AS total, count(*) AS n FROM signal_stakes GROUP BY signal_id) k
        ON k.signal_id = s.id
      WHERE s.agree_total + s.disagree_total <> coalesce(k.total, 0) OR s.stake_count <> coalesce(k.n, 0) LIMIT 3`,
  );
  if (stakeSums.length) problems.push(`signal totals differ from their stakes: ${JSON.stringify(stakeSums)}`);
  // An invocation is pending with its fee in escrow (a crash mid-call; the stale settler refunds it
  // within INVOKE_TIMEOUT_MS + 60 s), or finished with its hold empty: paid to the owner or refunded.
  const invocationHolds = await sql.query(
    `SELECT i.id, i.status, i.fee::text, coalesce(a.balance, 0)::text AS held
       FROM invocations i LEFT JOIN ledger_accounts a ON a.id = 'hold:invocation:' || i.id
      WHERE (i.status = 'pending' AND coalesce(a.balance, 0) <> i.fee) OR (i.status <> 'pending' AND coalesce(a.balance, 0) <> 0)
      LIMIT 3`,
  );
  if (invocationHolds.length) problems.push(`invocation holds not settled: ${JSON.stringify(invocationHolds)}`);
  const paidAndRefunded = await sql.query(
    `SELECT ref_id FROM ledger_transactions WHERE ref_type = 'invocation'
      GROUP BY ref_id HAVING count(*) FILTER (WHERE reason = 'invocation_refund') > 0
         AND count(*) FILTER (WHERE reason NOT IN ('invocation_refund', 'invocation_charge', 'invocation')) > 0 LIMIT 3`,
  );
  if (paidAndRefunded.length) problems.push(`invocations both paid and refunded: ${JSON.stringify(paidAndRefunded)}`);
  const orphanHolds = await sql.query(
    `SELECT a.id, a.balance::text FROM ledger_accounts a
      WHERE a.id LIKE 'hold:%' AND a.balance <> 0
        AND NOT EXISTS (SELECT 1 FROM jobs WHERE a.id = 'hold:job:' || jobs.id)
        AND NOT EXISTS (SELECT 1 FROM signals WHERE a.id = 'hold:signal:' || signals.id)
        AND NOT EXISTS (SELECT 1 FROM invocations WHERE a.id = 'hold:invocation:' || invocations.id)
        AND NOT EXISTS (SELECT 1 FROM skills WHERE a.id = 'hold:skill_stake:' || skills.id)
        AND a.id <> 'hold:referrals:pending' LIMIT 3`,
  );
  if (orphanHolds.length) problems.push(`holds tied to no object: ${JSON.stringify(orphanHolds)}`);

  // Each wallet's maintained call counts (GET /api/v1/agents/me/stats) match its invocations.
  const miscounted = await sql.query(`${MISCOUNTED_WALLETS_SQL} LIMIT 3`);
  if (miscounted.length) problems.push(`wallet call counts off: ${JSON.stringify(miscounted)}`);

  // A deposit (one tx hash) is credited at most once.
  const twice = await sql.query(
    `SELECT ref_id, count(*)::int AS n FROM ledger_transactions WHERE reason = 'deposit' GROUP BY ref_id HAVING count(*) > 1 LIMIT 3`,
  );
  if (twice.length) problems.push(`deposits credited twice: ${JSON.stringify(twice)}`);

  // Nothing a client saw acknowledged (2xx) is missing.
  const exists: Record<Acked['kind'], string> = {
    job: 'SELECT 1 FROM jobs WHERE id = $1::uuid',
    bid: 'SELECT 1 FROM job_bids WHERE id = $1::uuid',
    accept: `SELECT 1 FROM jobs WHERE id = $1::uuid AND status IN ('executing', 'completed')`,
    submit: `SELECT 1 FROM jobs WHERE id = $1::uuid AND status = 'completed'`,
    signal: 'SELECT 1 FROM signals WHERE id = $1::uuid',
    stake: 'SELECT 1 FROM signal_stakes WHERE id = $1::uuid',
    invocation: `SELECT 1 FROM invocations WHERE id = $1::uuid AND status <> 'pending'`,
    deposit: `SELECT 1 FROM ledger_transactions WHERE reason = 'deposit' AND ref_id = $1`,
  };
  for (const item of acked) {
    const rows = await sql.query(exists[item.kind], [item.id]);
    if (!rows.length) problems.push(`acknowledged ${item.kind} ${item.id} lost${item.detail ? ` (${item.detail})` : ''}`);
  }
  return problems;
}

/** Runs the chaos workload; resolves with what it saw (the caller asserts). */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const random = prng(options.seed);
  const log = options.log ?? ((line: string) => console.log(line));
  const minUp = options.minUptimeMs ?? 1500;
  const maxUp = options.maxUptimeMs ?? 5000;
  const concurrency = options.concurrency ?? 4;
  const stakesPerSignal = options.stakesPerSignal ?? 20;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-chaos-'));
  let databaseUrl: string | undefined;
  let schema: string | undefined;
  if (options.databaseUrl) {
    schema = `chaos_${randomBytes(5).toString('hex')}`;
    const url = new URL(options.databaseUrl);
    url.searchParams.set('schema', schema);
    databaseUrl = url.toString();
  }
  const report: ChaosReport = {
    seed: options.seed,
    kills: 0,
    acknowledged: 0,
    byKind: {},
    refused: {},
    serverErrors: [],
    violations: [],
    webhookEvents: 0,
    orphanedAnvils: 0,
    minutes: [],
    healthLatencies: [],
  };
  log(
    `chaos: seed ${options.seed}, ${options.kills} kills, ${databaseUrl ? 'PostgreSQL' : 'PGlite'} (replay: CHAOS_SEED=${options.seed})`,
  );

  // The agent behind paid invocations (answers after 0-300 ms, so kills land mid-forward) and the
  // webhook receiver (records each event id it was sent).
  const delivered = new Set<number>();
  const receiver: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.url === '/hook') {
        const id = Number(String(request.headers['webhook-id']).replace(/^evt_/, ''));
        if (Number.isFinite(id)) delivered.add(id);
        response.writeHead(200).end();
        return;
      }
      setTimeout(
        () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
        Math.floor(Math.random() * 300),
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

  if (!databaseUrl && options.pgliteTemplate) await seedPgliteDataDir(options.pgliteTemplate, dataDir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let output = '';
  let rpcUrl = '';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_URLS: 'true',
    SERVICE_NETWORK: 'testnet',
    LOG_LEVEL: 'warn',
    WEB_CONCURRENCY: '1',
    INVOKE_TIMEOUT_MS: '5000',
    RATE_LIMIT_WRITE: '1000000/1m',
    RATE_LIMIT_AUTH: '1000000/1m',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
  };
  if (!databaseUrl) delete env.DATABASE_URL;

  const start = async () => {
    output = '';
    const started = Date.now();
    child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'chaos-server.ts')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const ready = await new Promise<{ rpcUrl: string | null }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server not ready in 90 s:\n${output.slice(-2000)}`)), 90_000);
      const onData = () => {
        const match = /CHAOS-READY (\{.*\})/.exec(output);
        if (!match) return;
        clearTimeout(timer);
        child!.stdout!.off('data', onData);
        resolve(JSON.parse(match[1]!));
      };
      child!.stdout!.on('data', onData);
      child!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code}) before it was ready:\n${output.slice(-2000)}`));
      });
    });
    child!.removeAllListeners('exit');
    rpcUrl = ready.rpcUrl ?? '';
    log(`chaos: server up in ${Date.now() - started} ms`);
  };

  const kill = async () => {
    const victim = child!;
    const exited = new Promise((resolve) => victim.once('exit', resolve));
    victim.kill('SIGKILL');
    await exited;
    child = null;
    // The devnet's anvil (its command line names DATA_DIR) must not outlive the server.
    const deadline = Date.now() + 8000;
    let left = processesMentioning(dataDir);
    while (left.length && Date.now() < deadline) {
      await sleep(100);
      left = processesMentioning(dataDir);
    }
    if (left.length) {
      report.orphanedAnvils += left.length;
      report.violations.push(`anvil outlived its killed server: pids ${left.join(', ')}`);
      for (const pid of left) process.kill(pid, 'SIGKILL');
    }
  };

  const openOutside = async (): Promise<{ database: Database; close: () => Promise<void> }> => {
    // PGlite: the killed server's data directory, reopened (it must survive SIGKILL during writes).
    const database = await openDatabase({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }, { migrate: false });
    return { database, close: () => database.close() };
  };

  // --- requests
  /** A request that tallies what the server refused (4xx, by code) and every 5xx. */
  const request = async (method: string, urlPath: string, body?: unknown, token?: string): Promise<Answer> => {
    const answer = await call(base, method, urlPath, body, token);
    if (answer.status >= 500) report.serverErrors.push(`${method} ${urlPath} ${answer.status} ${answer.text.slice(0, 200)}`);
    else if (answer.status >= 400) {
      const code = `${answer.status} ${answer.body?.code ?? ''}`;
      report.refused[code] = (report.refused[code] ?? 0) + 1;
    }
    return answer;
  };
  /** Retries a step across kills (connection refused while the server is down). */
  const untilAnswered = async (step: () => Promise<Answer>): Promise<Answer> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (error) {
        if (attempt > 600) throw error;
        await sleep(200);
      }
    }
  };

  const acked: Acked[] = [];
  const ack = (item: Acked) => {
    acked.push(item);
    report.acknowledged++;
    report.byKind[item.kind] = (report.byKind[item.kind] ?? 0) + 1;
  };

  await start();
  try {
    const instructions = (await request('GET', '/api/v1/credits/deposit')).body as {
      treasury_address: Address;
      accepted_tokens: { address: Address }[];
    };
    const actors: Actor[] = [];
    const newActor = async (tokens: number): Promise<Actor> => {
      const key = generatePrivateKey();
      const account = privateKeyToAccount(key);
      const faucet = await request('POST', '/api/v1/devnet/faucet', {
        wallet_address: account.address,
        platform_tokens: tokens,
        eth: 1,
      });
      if (faucet.status !== 200) throw new Error(`faucet: ${faucet.status} ${faucet.text}`);
      const challenge = await request('POST', '/api/v1/auth/challenge', {
        owner_wallet: account.address,
        agent_pubkey: `pk-${account.address.slice(2, 10)}`,
      });
      const signature = await account.signMessage({ message: challenge.body.challenge });
      const verify = await request('POST', '/api/v1/auth/verify', { challenge_id: challenge.body.challenge_id, signature });
      if (verify.status !== 200) throw new Error(`verify: ${verify.status} ${verify.text}`);
      const created = await request(
        'POST',
        '/api/v1/agents',
        { agent_name: `Chaos ${account.address.slice(2, 8)}` },
        verify.body.token,
      );
      if (created.status !== 201) throw new Error(`agent: ${created.status} ${created.text}`);
      return { key, account, token: verify.body.token, agentId: created.body.agent_id };
    };
    for (let i = 0; i < 4; i++) actors.push(await newActor(100_000));
    const target = actors[0]!;
    const patched = await request(
      'PATCH',
      `/api/v1/agents/${target.agentId}`,
      { is_callable: true, invoke_url: `${receiverUrl}/agent`, price_claw_per_call: 1 },
      target.token,
    );
    if (patched.status !== 200) throw new Error(`target agent: ${patched.text}`);
    const hook = await request(
      'POST',
      '/api/v1/webhooks',
      { url: `${receiverUrl}/hook`, events: ['job.posted', 'job.bid', 'job.completed'] },
      target.token,
    );
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${hook.text}`);

    // Deposits fund every actor: a token transfer to the treasury, then a claim retried across kills
    // until it is answered, then claimed again (must not credit twice).
    const pendingDeposits: { actor: Actor; hash: Hex }[] = [];
    const deposit = async (actor: Actor, tokens: number) => {
      const chainDef = devnetChain(8453, rpcUrl);
      const wallet = createWalletClient({ account: actor.account, chain: chainDef, transport: http(rpcUrl) });
      const hash = await wallet.writeContract({
        address: instructions.accepted_tokens[0]!.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [instructions.treasury_address, parseUnits(String(tokens), 18)],
        gas: 200_000n,
      });
      pendingDeposits.push({ actor, hash });
    };
    for (const actor of actors) await deposit(actor, 5000);
    // An actor that runs out of CLAW deposits another 5,000 tokens (it holds 100,000 on chain), so a long
    // soak keeps the same mix of writes instead of ending in refusals.
    const refilling = new Set<Actor>();
    const paying = async (payer: Actor, answer: Answer): Promise<Answer> => {
      const broke = answer.status === 402 && answer.body?.code === 'insufficient_credits';
      if (broke && !refilling.has(payer) && !pendingDeposits.some((pending) => pending.actor === payer)) {
        refilling.add(payer);
        await deposit(payer, 5000).finally(() => refilling.delete(payer));
      }
      return answer;
    };
    // One deposit claimed and one job posted before the first kill, so every run has a webhook event.
    const first = pendingDeposits.shift()!;
    const firstClaim = await request('POST', '/api/v1/credits/deposit', { tx_hash: first.hash }, first.actor.token);
    if (firstClaim.status !== 200) throw new Error(`deposit claim: ${firstClaim.status} ${firstClaim.text}`);
    ack({ kind: 'deposit', id: first.hash.toLowerCase() });
    const firstJob = await request(
      'POST',
      '/api/v1/jobs',
      { title: 'Chaos job', description: 'Survive a kill', required_skill: 'security', bounty_claw: 5 },
      first.actor.token,
    );
    if (firstJob.status !== 201) throw new Error(`job: ${firstJob.status} ${firstJob.text}`);
    ack({ kind: 'job', id: firstJob.body.job_id });

    let stop = false;
    const openJobs: { id: string; poster: Actor }[] = [];
    const bidJobs: { id: string; poster: Actor; bidId: string; bidder: Actor }[] = [];
    const executing: { id: string; bidder: Actor }[] = [];
    const signals: { id: string; stakes: number }[] = [];
    openJobs.push({ id: firstJob.body.job_id, poster: first.actor });
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;

    const step = async () => {
      const roll = random();
      const actor = pick(actors);
      if (pendingDeposits.length && roll < 0.5) {
        const { actor: who, hash } = pendingDeposits[0]!;
        const claimed = await request('POST', '/api/v1/credits/deposit', { tx_hash: hash }, who.token);
        // 409 deposit_already_claimed: credited in an earlier life whose answer the kill cut off.
        if (claimed.status === 409 && claimed.body?.code === 'deposit_already_claimed') pendingDeposits.shift();
        if (claimed.status === 200) {
          pendingDeposits.shift();
          ack({ kind: 'deposit', id: hash.toLowerCase() });
          const again = await request('POST', '/api/v1/credits/deposit', { tx_hash: hash }, who.token);
          if (again.status === 200 && again.body.credited) report.violations.push(`deposit ${hash} credited again`);
        }
      } else if (roll < 0.3) {
        if (actor === target) return;
        const invoked = await paying(
          actor,
          await request('POST', `/api/v1/agents/${target.agentId}/invoke`, { n: roll }, actor.token),
        );
        if (invoked.status === 200) ack({ kind: 'invocation', id: invoked.body.invocation_id });
      } else if (roll < 0.45) {
        const posted = await paying(
          actor,
          await request(
            'POST',
            '/api/v1/jobs',
            { title: 'Chaos job', description: 'Survive a kill', required_skill: 'security', bounty_claw: 5 },
            actor.token,
          ),
        );
        if (posted.status === 201) {
          ack({ kind: 'job', id: posted.body.job_id });
          openJobs.push({ id: posted.body.job_id, poster: actor });
        }
      } else if (roll < 0.55 && openJobs.length) {
        const job = openJobs.shift()!;
        const bidder = actors.find((a) => a !== job.poster)!;
        const bid = await request(
          'POST',
          `/api/v1/jobs/${job.id}/bid`,
          { bid_claw: 4, eta_seconds: 60, proposal: 'ok' },
          bidder.token,
        );
        if (bid.status === 201) {
          ack({ kind: 'bid', id: bid.body.bid_id });
          bidJobs.push({ id: job.id, poster: job.poster, bidId: bid.body.bid_id, bidder });
        }
      } else if (roll < 0.65 && bidJobs.length) {
        const job = bidJobs.shift()!;
        const accepted = await request('POST', `/api/v1/jobs/${job.id}/accept`, { bid_id: job.bidId }, job.poster.token);
        if (accepted.status === 200) {
          ack({ kind: 'accept', id: job.id });
          executing.push({ id: job.id, bidder: job.bidder });
        }
      } else if (roll < 0.75 && executing.length) {
        const job = executing.shift()!;
        const submitted = await request('POST', `/api/v1/jobs/${job.id}/submit`, { result: { ok: true } }, job.bidder.token);
        if (submitted.status === 200) ack({ kind: 'submit', id: job.id });
      } else if (roll < 0.8 || !signals.length) {
        const published = await paying(
          actor,
          await request(
            'POST',
            '/api/v1/signals',
            { title: 'Chaos signal', body: 'It holds', signal_type: 'long', asset: 'ETH', confidence: 60, stake_claw: 5 },
            actor.token,
          ),
        );
        if (published.status === 201) {
          ack({ kind: 'signal', id: published.body.signal_id });
          signals.push({ id: published.body.signal_id, stakes: 0 });
        }
      } else {
        const signal = signals[signals.length - 1]!;
        if (signal.stakes >= stakesPerSignal) {
          signals.push(signals.shift()!);
          return;
        }
        const staked = await paying(
          actor,
          await request(
            'POST',
            `/api/v1/signals/${signal.id}/stake`,
            { stance: random() < 0.5 ? 'agree' : 'disagree', amount_claw: 1 },
            actor.token,
          ),
        );
        if (staked.status === 200 || staked.status === 201) {
          signal.stakes++;
          ack({ kind: 'stake', id: staked.body.stake_id });
        }
      }
    };
    const loop = async () => {
      while (!stop) {
        try {
          await step();
        } catch {
          // The server is down (killed): wait for the restart.
          await sleep(100);
        }
      }
    };
    const loops = Array.from({ length: concurrency }, loop);

    if (options.soakMs) {
      const soakEnd = Date.now() + options.soakMs;
      for (let minute = 1; Date.now() < soakEnd; minute++) {
        const latencies: number[] = [];
        const minuteEnd = Math.min(soakEnd, Date.now() + 60_000);
        while (Date.now() < minuteEnd) {
          const started = performance.now();
          await fetch(`${base}/api/v1/health`).then((response) => response.arrayBuffer());
          latencies.push(performance.now() - started);
          await sleep(200);
        }
        latencies.sort((a, b) => a - b);
        const status = readFileSync(`/proc/${(child as ChildProcess | null)?.pid}/status`, 'utf8');
        const rssMb = Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
        const healthP99Ms = Math.round(latencies[Math.ceil(latencies.length * 0.99) - 1] ?? 0);
        report.minutes.push({ minute, rssMb, healthP99Ms, acknowledged: acked.length });
        report.healthLatencies.push(latencies);
        log(`soak: minute ${minute}: RSS ${rssMb} MB, health p99 ${healthP99Ms} ms, ${acked.length} acknowledged`);
      }
    }
    for (let n = 0; n < options.kills; n++) {
      // Kill while the workload runs: once this life of the server acknowledged a few writes (a loaded
      // machine may take seconds for the first), then after a random pause.
      const before = acked.length;
      const progressDeadline = Date.now() + 120_000;
      while (acked.length < before + 3 && Date.now() < progressDeadline) await sleep(50);
      await sleep(minUp + Math.floor(random() * (maxUp - minUp)));
      await kill();
      report.kills++;
      const outside = await openOutside();
      try {
        const problems = await checkInvariants(outside.database.sql, acked);
        if (problems.length) report.violations.push(...problems.map((p) => `after kill ${n + 1}: ${p}`));
        log(`chaos: kill ${n + 1}/${options.kills}: ${acked.length} acknowledged, ${problems.length} violations`);
      } finally {
        await outside.close();
      }
      await start();
    }

    // Quiesce: claims left over, then let the webhook worker catch up.
    stop = true;
    await Promise.all(loops);
    for (const { actor, hash } of pendingDeposits) {
      const claimed = await untilAnswered(() => request('POST', '/api/v1/credits/deposit', { tx_hash: hash }, actor.token));
      if (claimed.status === 200) ack({ kind: 'deposit', id: hash.toLowerCase() });
    }
    // Deliveries a kill interrupted wait for their lease (claimed by the killed process) or retry delay
    // (30 s and more), and a receiver's circuit may be paused; the run makes them due now, as the passing
    // time would (the server is stopped for it), restarts and waits.
    const stopServer = async () => {
      const running = child as ChildProcess | null;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
      child = null;
    };
    await stopServer();
    let outside = await openOutside();
    await outside.database.sql.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), claimed_until = NULL
       WHERE status IN ('pending', 'delivering')`,
    );
    await outside.database.sql.query(`UPDATE webhooks SET paused_until = NULL`);
    const expected = (
      await outside.database.sql.query<{ id: string }>(
        `SELECT id::text FROM events WHERE name IN ('job.posted', 'job.bid', 'job.completed')`,
      )
    ).map((row) => Number(row.id));
    await outside.close();
    await start();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !expected.every((id) => delivered.has(id))) await sleep(250);
    await stopServer();
    outside = await openOutside();
    try {
      const undelivered = expected.filter((id) => !delivered.has(id));
      if (undelivered.length) {
        // What became of them, for the replay: their deliveries and the webhook's state.
        const state = await outside.database.sql.query(
          `SELECT d.event_id::text AS event, d.status, d.attempts, d.last_error, w.is_active, w.paused_until
           FROM events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id LEFT JOIN webhooks w ON w.id = d.webhook_id
           WHERE e.id = ANY($1::bigint[])`,
          [undelivered.slice(0, 10)],
        );
        report.violations.push(
          `events never delivered to the webhook: ${undelivered.slice(0, 10).join(', ')} (${JSON.stringify(state)})`,
        );
      }
      report.webhookEvents = expected.length;
      const problems = await checkInvariants(outside.database.sql, acked);
      report.violations.push(...problems.map((p) => `at the end: ${p}`));
    } finally {
      await outside.close();
    }
    log(
      `chaos: done, seed ${options.seed}: ${report.kills} kills, ${report.acknowledged} acknowledged writes, ` +
        `${report.webhookEvents} webhook events, ${report.serverErrors.length} 5xx, ${report.violations.length} violations; ` +
        `acknowledged ${JSON.stringify(report.byKind)}, refused ${JSON.stringify(report.refused)}`,
    );
    return report;
  } finally {
    const running = child as ChildProcess | null;
    if (running && running.exitCode === null) running.kill('SIGKILL');
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    if (schema && options.databaseUrl) {
      const client = new pg.Client({ connectionString: parsePostgresUrl(options.databaseUrl).connectionString });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The data of `npm run seed` (scripts/seed.ts). Fills an empty database with realistic data through
// set-based SQL (generate_series), in one transaction with per-row triggers off
// (session_replication_role: PGlite's user, or a PostgreSQL superuser), then derives what the
// triggers would have kept: trust edges, ledger balances, escrow, job and signal totals, platform
// counters and agent_stats (through the app's own refresh, so one rule), the propagated score and the
// leaderboard's table.
// Every invariant holds afterwards; checkInvariants() checks them and throws otherwise.
// Agents are numbered 1..n: agent i has handle agent-i, wallet 0x000...i (digits only, so its own
// EIP-55 form) and id md5('seed-agent-i'); low numbers are the hubs of a power-law endorsement graph,
// agents 1-10 and one in 200 are verified, 15% have a tier.
import { CHANGE_KINDS } from '../server/core/changes';
import type { Queryable } from '../server/core/db/sql-runner';
import { refreshAllAgentStats } from '../server/trust/trust-counts';
import { refreshPropagatedTrust } from '../server/trust/propagated-trust';
import { refreshLeaderboardTable } from '../server/leaderboard/refresh-leaderboard';
import { MISCOUNTED_WALLETS_SQL } from '../server/stats/wallet-invocations';

export const PRESETS = {
  small: {
    agents: 1_000,
    endorsements: 10_000,
    attestations: 500,
    jobs: 1_000,
    bids: 3_000,
    signals: 1_000,
    stakes: 5_000,
    skills: 100,
    'ledger-transactions': 10_000,
    events: 10_000,
  },
  medium: {
    agents: 20_000,
    endorsements: 200_000,
    attestations: 10_000,
    jobs: 20_000,
    bids: 60_000,
    signals: 20_000,
    stakes: 100_000,
    skills: 2_000,
    'ledger-transactions': 200_000,
    events: 200_000,
  },
  large: {
    agents: 100_000,
    endorsements: 1_000_000,
    attestations: 50_000,
    jobs: 100_000,
    bids: 300_000,
    signals: 100_000,
    stakes: 500_000,
    skills: 10_000,
    'ledger-transactions': 1_000_000,
    events: 1_000_000,
  },
} as const;
export type Counts = { -readonly [K in keyof (typeof PRESETS)['small']]: number };

const MICRO = 1_000_000;
// Deterministic ids and wallets of the n-th seeded agent: wallets are decimal digits only, so their
// EIP-55 checksum form is themselves.
const AID = (i: string) => `md5('seed-agent-' || (${i})::bigint)::uuid`;
const WALLET = (i: string) => `('0x' || lpad((${i})::text, 40, '0'))`;
const INDEX_OF = (wallet: string) => `substr(${wallet}, 3)::bigint`;
// A power-law pick among n agents: low indices are hubs (P(i <= k) = (k/n)^(1/3)).
const HUB = (n: number) => `(1 + floor(${n} * power(random(), 3)))::bigint`;
const ANY = (n: number) => `(1 + floor(${n} * random()))::bigint`;
const WORDS = `(ARRAY['alpha','beacon','cipher','delta','ember','falcon','glacier','harbor','ion','juniper','kestrel','lumen','meridian','nova','orbit','prism','quartz','raven','sable','tidal','umbra','vector','willow','xenon','yonder','zephyr'])`;

/**
 * Seeds an empty database on one connection (`runner` must be a single session: the bulk load is
 * one transaction with triggers off), then recomputes agent_stats and the propagated score and
 * checks every invariant (throws when one is broken).
 */
export async function seedDatabase(
  runner: Queryable,
  counts: Counts,
  options: { seed?: number; log?: (line: string) => void } = {},
): Promise<void> {
  const n = counts.agents;
  const log = options.log ?? (() => {});
  const step = async (label: string, sql: string, params: unknown[] = []) => {
    const started = Date.now();
    await runner.query(sql, params);
    log(`${label.padEnd(28)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  const started = Date.now();
  try {
    const [existing] = await runner.query<{ n: number }>('SELECT count(*)::int AS n FROM agents');
    if (Number(existing?.n) > 0) throw new Error('seed fills an empty database; this one has agents');
    log(`seeding ${JSON.stringify(counts)}`);
    await runner.query('BEGIN');
    // Per-row triggers (change notices, dirty marks, counters, event ids) are off for the bulk
    // load; everything they maintain is derived below.
    await runner.query(`SET LOCAL session_replication_role = replica`);
    await runner.query(`SELECT setseed($1)`, [options.seed ?? 0.42]);

    await step(
      'agents',
      `INSERT INTO agents (id, owner_wallet, agent_pubkey, name, handle, bio, tier, is_callable, invoke_url,
         price_claw_per_call, verified_at, created_at, updated_at)
       SELECT ${AID('i')}, ${WALLET('i')}, '0x' || md5('pk' || i) || md5('pk2' || i),
         initcap(${WORDS}[1 + i % 26]) || ' ' || initcap(${WORDS}[1 + (i / 26) % 26]) || ' ' || i, 'agent-' || i,
         'Seeded agent number ' || i, tier, callable,
         CASE WHEN callable THEN 'https://agent-' || i || '.example.com/invoke' END,
         CASE WHEN callable THEN (i % 50) * 10000 ELSE 0 END,
         -- verified and tiered seeds of the trust graph, spread over hubs and the tail
         CASE WHEN (i * 7919) % 200 = 0 OR i <= 10 THEN created END, created, created
       FROM (SELECT i, (i * 7919) % 100 AS h, now() - ((i * 104729) % (730 * 1440)) * interval '1 minute' AS created,
               (i * 31) % 5 = 0 AS callable,
               CASE WHEN (i * 7919) % 100 < 1 THEN 'enterprise' WHEN (i * 7919) % 100 < 5 THEN 'pro'
                    WHEN (i * 7919) % 100 < 15 THEN 'entry' ELSE 'none' END AS tier
             FROM generate_series(1, $1::bigint) i) a`,
      [n],
    );

    await step(
      'ledger accounts',
      `INSERT INTO ledger_accounts (id, kind, balance, allow_negative)
       SELECT 'wallet:' || ${WALLET('i')}, 'wallet', 0, false FROM generate_series(1, $1::bigint) i
       UNION ALL VALUES ('world:grants', 'world', 0, true), ('platform:fees', 'platform', 0, false)
       ON CONFLICT (id) DO NOTHING`,
      [n],
    );
    // Every wallet had its welcome grant and a larger seed grant, both from the outside world.
    await step(
      'grants',
      `WITH tx AS (
         INSERT INTO ledger_transactions (id, reason, ref_type, ref_id, idempotency_key, created_at)
         SELECT md5('grant-' || i || '-' || k)::uuid, CASE k WHEN 0 THEN 'welcome_grant' ELSE 'seed_grant' END, 'wallet',
           ${WALLET('i')}, CASE k WHEN 0 THEN 'welcome:' || ${WALLET('i')} END, now() - interval '731 days'
         FROM generate_series(1, $1::bigint) i, generate_series(0, 1) k
         RETURNING id, ref_id, reason)
       INSERT INTO ledger_postings (transaction_id, account_id, amount, created_at)
       SELECT id, account, amount, now() - interval '731 days' FROM tx,
         LATERAL (VALUES ('world:grants', -(CASE reason WHEN 'welcome_grant' THEN 100 ELSE 10000 END) * ${MICRO}::bigint),
                         ('wallet:' || ref_id, (CASE reason WHEN 'welcome_grant' THEN 100 ELSE 10000 END) * ${MICRO}::bigint))
           AS p(account, amount)`,
      [n],
    );

    await step(
      'endorsements',
      `INSERT INTO endorsements (id, subject_agent_id, endorser_wallet, attestation_type, message, status, created_at)
       SELECT DISTINCT ON (s, e) md5('endorsement-' || g)::uuid, ${AID('s')}, ${WALLET('e')},
         (ARRAY['trusted','trusted','trusted','skill_verified','security_audited'])[1 + g % 5],
         'Endorse agent agent-' || s || ' as trusted ' || g, 'active', now() - (g % 500000) * interval '1 minute'
       FROM (SELECT g, ${HUB(n)} AS s, ${ANY(n)} AS e FROM generate_series(1, $1::bigint) g) x
       WHERE s <> e ORDER BY s, e, g`,
      [counts.endorsements],
    );
    await step(
      'attestations',
      `INSERT INTO attestations (id, subject_agent_id, attester_wallet, attester_agent_id, verdict, weight, note, created_at)
       SELECT md5('attestation-' || g)::uuid, ${AID('s')}, ${WALLET('t')}, ${AID('t')},
         CASE WHEN g % 10 < 8 THEN 'positive' WHEN g % 10 = 8 THEN 'neutral' ELSE 'negative' END, 1 + g % 10,
         'seeded attestation', now() - (g % 500000) * interval '1 minute'
       FROM (SELECT g, ${HUB(n)} AS s, ${ANY(n)} AS t FROM generate_series(1, $1::bigint) g) x WHERE s <> t`,
      [counts.attestations],
    );

    // Jobs: 70% open (half with bids), 20% completed, 10% expired; every bounty escrowed first.
    await step(
      'jobs',
      `INSERT INTO jobs (id, poster_wallet, poster_agent_id, title, description, required_skill, bounty, status, expires_at, created_at)
       SELECT md5('job-' || j)::uuid, ${WALLET('p')}, ${AID('p')}, 'Seeded job ' || j || ': ' || ${WORDS}[1 + j % 26] || ' analysis',
         'Analyse the ' || ${WORDS}[1 + (j / 26) % 26] || ' data set and report.', ${WORDS}[1 + j % 26],
         (1 + j % 50) * ${MICRO}::bigint, 'open',
         CASE WHEN j % 10 = 9 THEN now() - interval '1 day' ELSE now() + interval '30 days' END, now() - (j % 100000) * interval '1 minute'
       FROM (SELECT j, ${ANY(n)} AS p FROM generate_series(1, $1::bigint) j) x`,
      [counts.jobs],
    );
    if (counts.jobs > 0) {
      await step(
        'bids',
        `INSERT INTO job_bids (id, job_id, bidder_wallet, bidder_agent_id, bid, eta_seconds, proposal, created_at)
         SELECT DISTINCT ON (j, b) md5('bid-' || g)::uuid, md5('job-' || j)::uuid, ${WALLET('b')}, ${AID('b')},
           (1 + g % 40) * ${MICRO}::bigint, 3600 * (1 + g % 48), 'I can do this: proposal ' || g, now() - (g % 100000) * interval '1 minute'
         FROM (SELECT g, 1 + (g * 7) % $2::bigint AS j, ${ANY(n)} AS b FROM generate_series(1, $1::bigint) g) x
         WHERE ${WALLET('b')} <> (SELECT poster_wallet FROM jobs WHERE id = md5('job-' || j)::uuid)
         ORDER BY j, b, g`,
        [counts.bids, counts.jobs],
      );
      await step(
        'job states',
        `WITH counted AS (SELECT job_id, count(*)::int AS bids, (array_agg(id ORDER BY created_at, id))[1] AS first_bid FROM job_bids GROUP BY job_id)
         UPDATE jobs j SET bid_count = c.bids,
           status = CASE WHEN j.expires_at < now() THEN 'expired'
                         WHEN substr(j.id::text, 1, 1) IN ('0', '1', '2') THEN 'completed' ELSE 'bid' END,
           accepted_bid_id = CASE WHEN j.expires_at >= now() AND substr(j.id::text, 1, 1) IN ('0', '1', '2') THEN c.first_bid END,
           accepted_at = CASE WHEN j.expires_at >= now() AND substr(j.id::text, 1, 1) IN ('0', '1', '2') THEN j.created_at + interval '1 hour' END,
           completed_at = CASE WHEN j.expires_at >= now() AND substr(j.id::text, 1, 1) IN ('0', '1', '2') THEN j.created_at + interval '2 hours' END,
           fee = CASE WHEN j.expires_at >= now() AND substr(j.id::text, 1, 1) IN ('0', '1', '2') THEN j.bounty * 5 / 100 END,
           result = CASE WHEN j.expires_at >= now() AND substr(j.id::text, 1, 1) IN ('0', '1', '2') THEN '{"report":"done"}'::jsonb END
         FROM counted c WHERE c.job_id = j.id`,
      );
      await step('expired jobs without bids', `UPDATE jobs SET status = 'expired' WHERE status = 'open' AND expires_at < now()`);
      await step('accepted bids', `UPDATE job_bids b SET status = 'accepted' FROM jobs j WHERE j.accepted_bid_id = b.id`);
      await step(
        'job ledger',
        `WITH moves AS (
           SELECT j.id, 'job_escrow' AS reason, j.created_at AS at, ARRAY['wallet:' || j.poster_wallet, 'hold:job:' || j.id] AS accounts,
             ARRAY[-j.bounty, j.bounty] AS amounts FROM jobs j
           UNION ALL
           SELECT j.id, 'job_payment', j.completed_at, ARRAY['hold:job:' || j.id, 'wallet:' || b.bidder_wallet, 'platform:fees'],
             ARRAY[-j.bounty, j.bounty - j.fee, j.fee] FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed'
           UNION ALL
           SELECT j.id, 'job_refund', j.expires_at, ARRAY['hold:job:' || j.id, 'wallet:' || j.poster_wallet], ARRAY[-j.bounty, j.bounty]
           FROM jobs j WHERE j.status = 'expired'),
         accounts AS (
           INSERT INTO ledger_accounts (id, kind) SELECT 'hold:job:' || id, 'hold' FROM jobs RETURNING id),
         tx AS (
           INSERT INTO ledger_transactions (id, reason, ref_type, ref_id, created_at)
           SELECT md5(reason || '-' || id)::uuid, reason, 'job', id::text, at FROM moves RETURNING id)
         INSERT INTO ledger_postings (transaction_id, account_id, amount, created_at)
         SELECT md5(m.reason || '-' || m.id)::uuid, p.account, p.amount, m.at FROM moves m,
           LATERAL unnest(m.accounts, m.amounts) AS p(account, amount)`,
      );
    }

    await step(
      'signals',
      `INSERT INTO signals (id, publisher_wallet, publisher_agent_id, title, body, signal_type, asset, confidence, stake, created_at)
       SELECT md5('signal-' || s)::uuid, ${WALLET('p')}, ${AID('p')}, 'Seeded signal ' || s, 'Reasoning for signal ' || s,
         (ARRAY['long','short','alert','insight','neutral'])[1 + s % 5], (ARRAY['ETH','BTC','SOL','ARB','OP'])[1 + (s / 5) % 5],
         ((s % 100) / 100.0)::float8, (1 + s % 20) * ${MICRO}::bigint, now() - (s % 100000) * interval '1 minute'
       FROM (SELECT s, ${ANY(n)} AS p FROM generate_series(1, $1::bigint) s) x`,
      [counts.signals],
    );
    if (counts.signals > 0) {
      await step(
        'stakes',
        `INSERT INTO signal_stakes (id, signal_id, staker_wallet, stance, amount, created_at)
         SELECT DISTINCT ON (sg, w) md5('stake-' || g)::uuid, md5('signal-' || sg)::uuid, ${WALLET('w')}, CASE WHEN g % 3 = 0 THEN 'disagree' ELSE 'agree' END,
           (1 + g % 10) * ${MICRO}::bigint, now() - (g % 100000) * interval '1 minute'
         FROM (SELECT g, 1 + (g * 13) % $2::bigint AS sg, ${ANY(n)} AS w FROM generate_series(1, $1::bigint) g) x
         WHERE ${WALLET('w')} <> (SELECT publisher_wallet FROM signals WHERE id = md5('signal-' || sg)::uuid)
         ORDER BY sg, w, g`,
        [counts.stakes, counts.signals],
      );
      await step(
        'signal totals',
        `UPDATE signals s SET agree_total = t.agree, disagree_total = t.disagree, stake_count = t.n
         FROM (SELECT signal_id, coalesce(sum(amount) FILTER (WHERE stance = 'agree'), 0) AS agree,
                 coalesce(sum(amount) FILTER (WHERE stance = 'disagree'), 0) AS disagree, count(*)::int AS n
               FROM signal_stakes GROUP BY signal_id) t WHERE t.signal_id = s.id`,
      );
      await step(
        'signal ledger',
        `WITH moves AS (
           SELECT 'signal-' || id AS key, id, publisher_wallet AS wallet, stake AS amount, created_at AS at FROM signals
           UNION ALL SELECT 'stake-' || id, signal_id, staker_wallet, amount, created_at FROM signal_stakes),
         accounts AS (INSERT INTO ledger_accounts (id, kind) SELECT 'hold:signal:' || id, 'hold' FROM signals RETURNING id),
         tx AS (
           INSERT INTO ledger_transactions (id, reason, ref_type, ref_id, created_at)
           SELECT md5('signal-tx-' || key)::uuid, 'signal_stake', 'signal', id::text, at FROM moves RETURNING id)
         INSERT INTO ledger_postings (transaction_id, account_id, amount, created_at)
         SELECT md5('signal-tx-' || m.key)::uuid, p.account, p.amount, m.at FROM moves m,
           LATERAL (VALUES ('wallet:' || m.wallet, -m.amount), ('hold:signal:' || m.id, m.amount)) AS p(account, amount)`,
      );
    }

    await step(
      'skills',
      `INSERT INTO skills (id, author_agent_id, author_wallet, name, summary, description, category, tags, pricing_type, status, family, created_at)
       SELECT md5('skill-' || k)::uuid, ${AID('a')}, ${WALLET('a')}, ${WORDS}[1 + k % 26] || '-' || ${WORDS}[1 + (k / 26) % 26] || '-' || k,
         'Seeded skill ' || k, 'What seeded skill ' || k || ' does, step by step.',
         (ARRAY['automation','analysis','social','trading','security'])[1 + k % 5], ARRAY['seeded'], 'free', 'active', 'A',
         now() - (k % 100000) * interval '1 minute'
       FROM (SELECT k, ${HUB(n)} AS a FROM generate_series(1, $1::bigint) k) x`,
      [counts.skills],
    );

    // Payments between wallets: at most 1 CLAW each, far below every wallet's grants.
    await step(
      'ledger transactions',
      `WITH moves AS (
         SELECT t, ${ANY(n)} AS payer, ${ANY(n)} AS payee, (1 + t % 100) * 10000::bigint AS amount FROM generate_series(1, $1::bigint) t),
       tx AS (
         INSERT INTO ledger_transactions (id, reason, ref_type, ref_id, created_at)
         SELECT md5('transfer-' || t)::uuid, 'seed_transfer', 'wallet', ${WALLET('payer')}, now() - (t % 500000) * interval '1 second'
         FROM moves WHERE payer <> payee RETURNING id)
       INSERT INTO ledger_postings (transaction_id, account_id, amount, created_at)
       SELECT md5('transfer-' || m.t)::uuid, p.account, p.amount, now() - (m.t % 500000) * interval '1 second' FROM moves m,
         LATERAL (VALUES ('wallet:' || ${WALLET('m.payer')}, -m.amount), ('wallet:' || ${WALLET('m.payee')}, m.amount)) AS p(account, amount)
       WHERE m.payer <> m.payee`,
      [counts['ledger-transactions']],
    );
    await step(
      'ledger balances',
      `UPDATE ledger_accounts a SET balance = p.total
       FROM (SELECT account_id, sum(amount) AS total FROM ledger_postings GROUP BY account_id) p WHERE p.account_id = a.id`,
    );

    // Public events about agents, in log order (ids as the commit-order trigger would give them).
    await step(
      'events',
      `INSERT INTO events (id, name, data, audience, created_at)
       SELECT nextval('events_id_seq'), name, data, '{}', at FROM (
         SELECT e, (ARRAY['agent.registered','agent.invoked','job.posted','job.bid','skill.published'])[1 + e % 5] AS name,
           CASE WHEN e % 5 = 1 THEN jsonb_build_object('target_agent_id', ${AID('a')}, 'caller_agent_id', ${AID('b')})
                ELSE jsonb_build_object('agent_id', ${AID('a')}) END AS data,
           now() - ($1::bigint - e) * interval '100 milliseconds' AS at
         FROM (SELECT e, ${HUB(n)} AS a, ${ANY(n)} AS b FROM generate_series(1, $1::bigint) e) x ORDER BY e) y`,
      [counts.events],
    );

    // The trust graph, derived as server/trust/derive-edges.ts does (one agent per wallet here).
    await step(
      'trust edges',
      `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength, updated_at)
       SELECT source, target, 'trust', LEAST(1.0, sum(amount))::float8, now() FROM (
         SELECT ${AID(INDEX_OF('endorser_wallet'))} AS source, subject_agent_id AS target, 0.5 AS amount FROM endorsements WHERE status = 'active'
         UNION ALL
         SELECT attester_agent_id, subject_agent_id,
           CASE verdict WHEN 'positive' THEN weight / 10.0 WHEN 'negative' THEN -weight / 10.0 ELSE 0 END FROM attestations) x
       WHERE source <> target GROUP BY source, target HAVING sum(amount) > 0`,
    );
    await step(
      'collaboration edges',
      `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength, updated_at)
       SELECT source, target, 'collaboration', LEAST(1.0, count(*) * 0.25)::float8, now() FROM (
         SELECT j.poster_agent_id AS source, b.bidder_agent_id AS target FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed'
         UNION ALL
         SELECT b.bidder_agent_id, j.poster_agent_id FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed') x
       WHERE source <> target GROUP BY source, target`,
    );

    await step('clear counters', 'DELETE FROM platform_counts');
    await step(
      'platform counters',
      `INSERT INTO platform_counts (name, n)
       SELECT 'agents', count(*) FROM agents
       UNION ALL SELECT 'callable_agents', count(*) FROM agents WHERE is_callable
       UNION ALL SELECT 'wallets', count(DISTINCT owner_wallet) FROM agents
       UNION ALL SELECT 'endorsements', count(*) FROM endorsements WHERE status = 'active'
       UNION ALL SELECT 'attestations', count(*) FROM attestations
       UNION ALL SELECT 'invocations', count(*) FROM invocations WHERE status = 'success'
       UNION ALL SELECT 'wallets_tracked', count(*) FROM smart_money_wallets
       UNION ALL SELECT 'events', count(*) FROM events
       UNION ALL SELECT k, count(*) FROM (SELECT vs_list_count_key('jobs', r) AS k FROM jobs r
         UNION ALL SELECT vs_list_count_key('signals', r) FROM signals r
         UNION ALL SELECT vs_list_count_key('skills', r) FROM skills r) c WHERE k IS NOT NULL GROUP BY k`,
    );
    await step('clear wallet call deltas', 'DELETE FROM wallet_invocation_deltas');
    await step('clear wallet call counts', 'DELETE FROM wallet_invocation_counts');
    await step(
      'wallet call counts',
      `INSERT INTO wallet_invocation_counts (wallet, made, succeeded)
       SELECT caller_wallet, count(*), count(*) FILTER (WHERE status = 'success') FROM invocations GROUP BY caller_wallet`,
    );
    await step('mark every agent', `INSERT INTO agent_stats_dirty (agent_id) SELECT id FROM agents`);
    // The triggers' change notices were off too: a notice of every kind with no id (sent at the commit) has every
    // running instance drop or reload what it keeps, as after a lost listening connection.
    await step(
      'change notices',
      `SELECT pg_notify('vs_' || lower(current_schema()), json_build_object('kind', k, 'id', NULL)::text) FROM unnest($1::text[]) k`,
      [[...CHANGE_KINDS]],
    );
    await runner.query('COMMIT');
  } catch (error) {
    await runner.query('ROLLBACK').catch(() => {});
    throw error;
  }
  {
    // VACUUM too: it merges the bulk load into the indexes and sets the visibility map.
    await step('vacuum analyze', 'VACUUM ANALYZE');
    let t = Date.now();
    // set-based: the job's per-agent batches would take tens of minutes at the large preset
    const refreshed = await refreshAllAgentStats(runner);
    log(`${'agent_stats'.padEnd(28)} ${((Date.now() - t) / 1000).toFixed(1)} s (${refreshed} marks)`);
    t = Date.now();
    const scored = await refreshPropagatedTrust(runner, { force: true });
    log(`${'propagated trust'.padEnd(28)} ${((Date.now() - t) / 1000).toFixed(1)} s (${scored} agents)`);
    t = Date.now();
    // the leaderboard's table, so that the first reads are answered from it (as the job keeps it)
    const ranked = await refreshLeaderboardTable(runner);
    log(`${'leaderboard'.padEnd(28)} ${((Date.now() - t) / 1000).toFixed(1)} s (${ranked} wallets)`);
    // VACUUM again: the refresh above emptied agent_stats_dirty (every agent was marked) and rewrote
    // agent_stats; left to autovacuum, every read that checks the dirty marks scanned the dead index.
    await step('vacuum analyze', 'VACUUM ANALYZE');
    await checkInvariants(runner, log);
    log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

/**
 * Throws unless the ledger, escrow, handles and agent_stats are consistent. `live`: a running service
 * (agents marked for a count refresh are in flight there, so only money and handles are checked).
 */
export async function checkInvariants(
  runner: Queryable,
  log: (line: string) => void = () => {},
  options: { live?: boolean } = {},
) {
  const [row] = await runner.query<Record<string, string | number | boolean>>(
    `SELECT
       (SELECT coalesce(sum(balance), 0) FROM ledger_accounts) AS ledger_sum,
       (SELECT count(*) FROM (SELECT transaction_id FROM ledger_postings GROUP BY transaction_id HAVING sum(amount) <> 0) x) AS unbalanced,
       (SELECT count(*) FROM ledger_accounts a WHERE a.balance <> coalesce((SELECT sum(amount) FROM ledger_postings p WHERE p.account_id = a.id), 0)) AS drifted,
       (SELECT count(*) FROM ledger_accounts WHERE NOT allow_negative AND balance < 0) AS overdrawn,
       (SELECT count(*) FROM jobs j JOIN ledger_accounts h ON h.id = 'hold:job:' || j.id
        WHERE h.balance <> CASE WHEN j.status IN ('open', 'bid', 'executing') THEN j.bounty ELSE 0 END) AS job_escrow_off,
       (SELECT count(*) FROM signals s JOIN ledger_accounts h ON h.id = 'hold:signal:' || s.id
        WHERE s.status = 'open' AND h.balance <> s.stake + s.agree_total + s.disagree_total) AS signal_escrow_off,
       (SELECT count(*) - count(DISTINCT handle) FROM agents) AS duplicate_handles,
       (SELECT count(*) FROM (${MISCOUNTED_WALLETS_SQL}) w) AS call_counts_off,
       ${options.live ? '0' : '(SELECT count(*) FROM agent_stats_dirty)'} AS dirty`,
  );
  log(`invariants ${JSON.stringify(row)}`);
  const bad = Object.entries(row ?? {}).filter(([, value]) => Number(value) !== 0);
  if (bad.length) throw new Error(`invariants broken: ${bad.map(([key, value]) => `${key}=${value}`).join(', ')}`);
}

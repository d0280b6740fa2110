import type { Queryable } from '../core/db/sql-runner';
import { currentRuntime } from '../core/runtime';
import { endorserStandingSql } from './endorser-standing';
import { TIER_POINTS, TRUST_RULES, type TrustInputs } from './trust-score';

// The raw counts behind the trust score. countedCtes() is the one rule that counts them from the
// source tables; agent_stats keeps its result per agent (refreshAgentStats, run by the
// refresh-agent-stats job), and triggers mark an agent in agent_stats_dirty in the transaction of
// any change to its counts. Readers take clean rows from agent_stats and count the few marked ones
// live, so a score is never stale and no request counts more than its page's agents.
// computeTrust() turns counts into points; trustTotalSql() is the same arithmetic in SQL.

const MONTH_SECONDS = 30.4375 * 24 * 3600;

// An agent is verified when an admin verified it, or an admin wallet endorsed it as `verified`.
const VERIFIED = `(a.verified_at IS NOT NULL OR EXISTS (
     SELECT 1 FROM endorsements e
     WHERE e.subject_agent_id = a.id AND e.status = 'active' AND e.attestation_type = 'verified'
       AND e.endorser_wallet = ANY($1::text[])))`;

const AGE_MONTHS = (column: string) => `floor(extract(epoch FROM now() - ${column}) / ${MONTH_SECONDS})::int`;

/**
 * The counts behind the score as CTEs ending in `counted` (id, created_at, tier, verified, published_skills,
 * received, endorsement_count, age_months, connections), for the agents whose id satisfies `only` (an SQL
 * predicate on an agent-id column) or for every agent. Set-based: each endorser's standing is judged once
 * per wallet, and each count is one GROUP BY over its table's rows of these agents (by index), so a page,
 * a refresh batch and a bulk load all count the same way. $1 is the admin wallet list.
 */
function countedCtes(only: (column: string) => string = () => 'true'): string {
  return `standing AS (
       SELECT w.wallet FROM (
         SELECT DISTINCT endorser_wallet AS wallet FROM endorsements WHERE status = 'active' AND ${only('subject_agent_id')}) w
       WHERE ${endorserStandingSql('w.wallet')}),
     endorsed AS (
       SELECT e.subject_agent_id AS id, count(*) AS n,
         count(*) FILTER (WHERE e.endorser_wallet IN (SELECT wallet FROM standing)) AS counted,
         bool_or(e.attestation_type = 'verified' AND e.endorser_wallet = ANY($1::text[])) AS admin_verified
       FROM endorsements e WHERE e.status = 'active' AND ${only('e.subject_agent_id')} GROUP BY e.subject_agent_id),
     attested AS (
       SELECT subject_agent_id AS id, sum(CASE verdict WHEN 'positive' THEN 1 WHEN 'negative' THEN -1 ELSE 0 END) AS n
       FROM attestations WHERE ${only('subject_agent_id')} GROUP BY subject_agent_id),
     published AS (
       SELECT author_agent_id AS id, count(*) AS n FROM skills
       WHERE status = 'active' AND removed_at IS NULL AND hidden_at IS NULL AND ${only('author_agent_id')}
       GROUP BY author_agent_id),
     linked AS (
       SELECT id, count(*) AS n FROM (
         SELECT source_agent_id AS id, target_agent_id AS other FROM trust_edges WHERE ${only('source_agent_id')}
         UNION SELECT target_agent_id, source_agent_id FROM trust_edges WHERE ${only('target_agent_id')}) pairs
       WHERE other <> id GROUP BY id),
     counted AS (
       SELECT a.id, a.created_at, a.tier,
         (a.verified_at IS NOT NULL OR coalesce(e.admin_verified, false)) AS verified,
         coalesce(p.n, 0)::int AS published_skills,
         GREATEST(0, coalesce(e.counted, 0) + coalesce(t.n, 0))::int AS received,
         coalesce(e.n, 0)::int AS endorsement_count,
         ${AGE_MONTHS('a.created_at')} AS age_months,
         coalesce(l.n, 0)::int AS connections
       FROM agents a LEFT JOIN endorsed e ON e.id = a.id LEFT JOIN attested t ON t.id = a.id
         LEFT JOIN published p ON p.id = a.id LEFT JOIN linked l ON l.id = a.id
       WHERE ${only('a.id')})`;
}

/** `only` for countedCtes(): the agent ids of the (materialized) CTE `ids`. */
const IN_IDS = (column: string) => `${column} IN (SELECT agent_id FROM ids)`;

interface CountRow {
  id: string;
  verified: boolean;
  tier: string;
  published_skills: number;
  received: number;
  endorsement_count: number;
  age_months: number;
  connections: number;
}

export interface TrustCounts {
  inputs: TrustInputs;
  endorsementCount: number;
  /** The background personalised PageRank (propagated-trust.ts), 0-100. */
  propagatedTrust: number;
}

/** The admin wallets: the $1 of TRUST_SEED_WEIGHT_SQL and of the counted CTEs. */
export function adminWallets(): string[] {
  return currentRuntime().config.ADMIN_WALLETS;
}

function countsFrom(row: CountRow, propagatedTrust: number): TrustCounts {
  return {
    propagatedTrust,
    inputs: {
      verified: row.verified,
      tier: (row.tier in TIER_POINTS ? row.tier : 'none') as TrustInputs['tier'],
      publishedSkills: Number(row.published_skills),
      receivedAttestations: Number(row.received),
      accountAgeMonths: Number(row.age_months),
      connections: Number(row.connections),
    },
    endorsementCount: Number(row.endorsement_count),
  };
}

const IS_DIRTY = (column: string) => `EXISTS (SELECT 1 FROM agent_stats_dirty d WHERE d.agent_id = ${column})`;

/**
 * The maintained counts of the agents aliased `a`, as columns prefixed tc_ (TrustCountRow), with the
 * join they need: a statement that reads agents (a page, a graph's nodes) reads their counts with
 * them, and trustCountsFromRows() completes the agents marked dirty. Tier and age come from the agent
 * itself, so they are exact whatever the row's age.
 */
export const TRUST_COUNT_COLUMNS = `a.id AS tc_id, a.tier AS tc_tier, ${AGE_MONTHS('a.created_at')} AS tc_age_months,
  tc_s.verified AS tc_verified, tc_s.published_skills AS tc_published_skills, tc_s.received AS tc_received,
  tc_s.endorsement_count AS tc_endorsement_count, tc_s.connections AS tc_connections,
  tc_s.propagated_trust AS tc_propagated_trust, (tc_s.agent_id IS NULL OR ${IS_DIRTY('a.id')}) AS tc_stale`;
export const TRUST_COUNT_JOINS = 'LEFT JOIN agent_stats tc_s ON tc_s.agent_id = a.id';

export interface TrustCountRow {
  tc_id: string;
  tc_tier: string;
  tc_age_months: number;
  tc_verified: boolean | null;
  tc_published_skills: number | null;
  tc_received: number | null;
  tc_endorsement_count: number | null;
  tc_connections: number | null;
  tc_propagated_trust: number | null;
  tc_stale: boolean;
}

/** Trust counts from rows that selected TRUST_COUNT_COLUMNS: maintained rows, live counts for agents marked dirty. */
export async function trustCountsFromRows(rows: TrustCountRow[], runner: Queryable): Promise<Map<string, TrustCounts>> {
  const out = new Map<string, TrustCounts>();
  const stale: string[] = [];
  for (const row of rows) {
    if (row.tc_stale) {
      stale.push(row.tc_id);
      continue;
    }
    const counts: CountRow = {
      id: row.tc_id,
      tier: row.tc_tier,
      age_months: row.tc_age_months,
      verified: Boolean(row.tc_verified),
      published_skills: Number(row.tc_published_skills),
      received: Number(row.tc_received),
      endorsement_count: Number(row.tc_endorsement_count),
      connections: Number(row.tc_connections),
    };
    out.set(row.tc_id, countsFrom(counts, Number(row.tc_propagated_trust ?? 0)));
  }
  if (stale.length) {
    const propagated = new Map(rows.map((row) => [row.tc_id, Number(row.tc_propagated_trust ?? 0)]));
    const live = await runner.query<CountRow>(
      `WITH ${countedCtes((column) => `${column} = ANY($2::uuid[])`)} SELECT * FROM counted`,
      [adminWallets(), stale],
    );
    for (const row of live) out.set(row.id, countsFrom(row, propagated.get(row.id) ?? 0));
  }
  return out;
}

/** Trust counts for a set of agents: maintained rows, and live counts for agents marked dirty. */
export async function loadTrustCounts(ids: string[], runner: Queryable): Promise<Map<string, TrustCounts>> {
  if (ids.length === 0) return new Map();
  const rows = await runner.query<TrustCountRow>(
    `SELECT ${TRUST_COUNT_COLUMNS} FROM agents a ${TRUST_COUNT_JOINS} WHERE a.id = ANY($1::uuid[])`,
    [ids],
    { prepare: true },
  );
  return trustCountsFromRows(rows, runner);
}

const capped = (column: string, rule: { points: number; cap: number }) => `LEAST(${rule.cap}, ${column} * ${rule.points})`;

/** The trust total in SQL, from the same rules as computeTrust(). */
function trustTotalSql(): string {
  const tier = Object.entries(TIER_POINTS)
    .map(([name, points]) => `WHEN '${name}' THEN ${points}`)
    .join(' ');
  return [
    `(CASE WHEN verified THEN ${TRUST_RULES.verified.points} ELSE 0 END)`,
    `(CASE tier ${tier} ELSE 0 END)`,
    capped('published_skills', TRUST_RULES.skills),
    capped('received', TRUST_RULES.attestations),
    capped('age_months', TRUST_RULES.ageMonths),
    capped('connections', TRUST_RULES.connections),
  ].join(' + ');
}

// Marked agents a filter or an order by score judges live: the most recently marked ones (the job folds
// the oldest marks first), so a change shows in the next filtered read. Older marks (the job behind, e.g.
// after a bulk import) are judged on their stored row until the refresh-agent-stats job (every 2 s) folds
// them in; counting every marked agent live was the 3.4 s cold p50 of a trust filter at 100,000 agents.
export const LIVE_DIRTY_MAX = 50;

/** Live trust totals of the most recently marked agents (at most LIVE_DIRTY_MAX). */
export async function dirtyTrustTotals(runner: Queryable): Promise<Map<string, { total: number; createdAt: Date }>> {
  const rows = await runner.query<{ id: string; created_at: Date; total: number }>(
    `WITH ids AS MATERIALIZED (
       SELECT DISTINCT agent_id FROM (SELECT agent_id FROM agent_stats_dirty ORDER BY id DESC LIMIT ${LIVE_DIRTY_MAX}) m),
     ${countedCtes(IN_IDS)}
     SELECT id, created_at, ${trustTotalSql()} AS total FROM counted`,
    [adminWallets()],
    // planned once per connection: planning its CTEs took 4.2 ms, executing them 1.3 ms (100,000 agents, no mark)
    { prepare: true },
  );
  return new Map(rows.map((row) => [row.id, { total: Number(row.total), createdAt: new Date(row.created_at) }]));
}

const REFRESH_BATCH = 2000;

/** The CTE `written`: upserts the agent_stats rows of the CTE `counted` (one row per agent). */
const WRITE_COUNTED = `written AS (
       INSERT INTO agent_stats (agent_id, verified, published_skills, received, endorsement_count, connections,
         age_months, trust_score, agent_created_at, refreshed_at)
       SELECT id, verified, published_skills, received, endorsement_count, connections, age_months, ${trustTotalSql()},
         created_at, now() FROM counted
       ON CONFLICT (agent_id) DO UPDATE SET verified = excluded.verified, published_skills = excluded.published_skills,
         received = excluded.received, endorsement_count = excluded.endorsement_count, connections = excluded.connections,
         age_months = excluded.age_months, trust_score = excluded.trust_score, agent_created_at = excluded.agent_created_at,
         refreshed_at = excluded.refreshed_at
       RETURNING 1)`;

/**
 * Recomputes agent_stats for up to `batch` agents marked dirty, in one statement (the marks are
 * deleted with the rows that replace them, so a crash loses nothing). Marks made by transactions
 * that commit later stay for the next run. Returns how many marks it cleared.
 */
export async function refreshAgentStatsBatch(runner: Queryable, batch = REFRESH_BATCH): Promise<number> {
  const [row] = await runner.query<{ refreshed: number }>(
    `WITH locked AS (SELECT pg_try_advisory_xact_lock(hashtextextended('agent_stats.refresh', 0)) AS ok),
     taken AS (
       DELETE FROM agent_stats_dirty WHERE id IN (
         SELECT id FROM agent_stats_dirty WHERE (SELECT ok FROM locked) ORDER BY id LIMIT ${Math.max(1, Math.floor(batch))}
         FOR UPDATE SKIP LOCKED)
       RETURNING agent_id),
     ids AS MATERIALIZED (SELECT DISTINCT agent_id FROM taken),
     ${countedCtes(IN_IDS)},
     gone AS (DELETE FROM agent_stats WHERE agent_id IN (SELECT agent_id FROM ids) AND agent_id NOT IN (SELECT id FROM counted)),
     ${WRITE_COUNTED}
     SELECT (SELECT count(*) FROM taken)::int AS refreshed`,
    [adminWallets()],
  );
  return Number(row?.refreshed ?? 0);
}

/** Drains agent_stats_dirty (bounded: at most `maxBatches` batches per run); returns the marks cleared. */
export async function refreshAgentStats(runner: Queryable, maxBatches = 50): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const refreshed = await refreshAgentStatsBatch(runner);
    total += refreshed;
    if (refreshed < REFRESH_BATCH) break;
  }
  return total;
}

/** Marks the agents whose account-age points changed since their row was computed (hourly). */
export async function markAgedAgentStats(runner: Queryable): Promise<number> {
  const rows = await runner.query<{ agent_id: string }>(
    `INSERT INTO agent_stats_dirty (agent_id)
     SELECT s.agent_id FROM agent_stats s
     WHERE s.age_months < ${TRUST_RULES.ageMonths.cap / TRUST_RULES.ageMonths.points}
       AND s.age_months <> ${AGE_MONTHS('s.agent_created_at')}
     RETURNING agent_id`,
  );
  return rows.length;
}

/** Every verified agent and every agent with a tier or a month of age: the seeds of the propagated score. */
/**
 * An agent's restart weight in the propagated score, as SQL over `agents a` ($1: the admin wallets):
 * 3 when verified, 1 when established (a tier, or a month of age), else 0.
 */
export const TRUST_SEED_WEIGHT_SQL = `CASE WHEN ${VERIFIED} THEN 3
       WHEN a.tier <> 'none' OR a.created_at < now() - interval '30 days' THEN 1 ELSE 0 END`;

/** The ids of the `limit` agents with the highest trust total (ties: oldest first). */
export async function topTrustedAgentIds(limit: number, runner: Queryable): Promise<string[]> {
  const n = Math.max(1, Math.floor(limit));
  const [clean, dirty] = await Promise.all([
    runner.query<{ id: string; total: number; created_at: Date }>(
      `SELECT s.agent_id AS id, s.trust_score AS total, s.agent_created_at AS created_at FROM agent_stats s
       WHERE NOT ${IS_DIRTY('s.agent_id')}
       ORDER BY s.trust_score DESC, s.agent_created_at ASC, s.agent_id ASC LIMIT ${n}`,
    ),
    dirtyTrustTotals(runner),
  ]);
  return [
    ...clean.map((row) => ({ id: row.id, total: Number(row.total), createdAt: new Date(row.created_at) })),
    ...[...dirty].map(([id, row]) => ({ id, ...row })),
  ]
    .sort((a, b) => b.total - a.total || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .slice(0, n)
    .map((row) => row.id);
}

/**
 * Fills agent_stats for every agent in one set-based statement and clears every mark: a bulk load's
 * refresh (the seed tool): 29 s for 100,000 agents and 1,000,000 edges. The scale test compares its
 * rows with counts read live.
 */
export async function refreshAllAgentStats(runner: Queryable): Promise<number> {
  const [row] = await runner.query<{ n: number }>(
    `WITH ${countedCtes()},
     cleared AS (DELETE FROM agent_stats_dirty RETURNING 1),
     ${WRITE_COUNTED}
     SELECT (SELECT count(*) FROM written)::int AS n, (SELECT count(*) FROM cleared)::int AS cleared`,
    [adminWallets()],
  );
  return Number(row?.n ?? 0);
}

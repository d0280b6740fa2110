import { database } from '../core/db';
import type { Queryable } from '../core/db/sql-runner';
import { currentRuntime } from '../core/runtime';
import { endorserStandingSql } from './endorser-standing';
import { TIER_POINTS, TRUST_RULES, type TrustInputs } from './trust-score';

// The raw counts behind the trust score, computed from the source tables on every read, so a
// score is never stale. computeTrust() turns them into points; trustTotalSql() is the same
// arithmetic in SQL, for filtering lists by min_trust_score.

const MONTH_SECONDS = 30.4375 * 24 * 3600;

// An agent is verified when an admin verified it, or an admin wallet endorsed it as `verified`.
const VERIFIED = `(a.verified_at IS NOT NULL OR EXISTS (
     SELECT 1 FROM endorsements e
     WHERE e.subject_agent_id = a.id AND e.status = 'active' AND e.attestation_type = 'verified'
       AND e.endorser_wallet = ANY($1::text[])))`;

/** Per-agent counts, as columns of a SELECT over `agents a`. $1 is the admin wallet list. */
const COUNT_COLUMNS = `
  ${VERIFIED} AS verified,
  a.tier,
  (SELECT count(*) FROM skills s
   WHERE s.author_agent_id = a.id AND s.status = 'active' AND s.removed_at IS NULL AND s.hidden_at IS NULL)::int AS published_skills,
  GREATEST(0,
    (SELECT count(*) FROM endorsements e WHERE e.subject_agent_id = a.id AND e.status = 'active'
       AND ${endorserStandingSql('e.endorser_wallet')})
    + (SELECT coalesce(sum(CASE t.verdict WHEN 'positive' THEN 1 WHEN 'negative' THEN -1 ELSE 0 END), 0)
       FROM attestations t WHERE t.subject_agent_id = a.id))::int AS received,
  (SELECT count(*) FROM endorsements e WHERE e.subject_agent_id = a.id AND e.status = 'active')::int AS endorsement_count,
  floor(extract(epoch FROM now() - a.created_at) / ${MONTH_SECONDS})::int AS age_months,
  (SELECT count(*) FROM (
     SELECT target_agent_id AS other FROM trust_edges WHERE source_agent_id = a.id
     UNION SELECT source_agent_id FROM trust_edges WHERE target_agent_id = a.id) n
   WHERE n.other <> a.id)::int AS connections`;

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
}

function adminWallets(): string[] {
  return currentRuntime().config.ADMIN_WALLETS;
}

/** Trust counts for a set of agents. */
export async function loadTrustCounts(ids: string[], runner: Queryable): Promise<Map<string, TrustCounts>> {
  if (ids.length === 0) return new Map();
  const rows = await runner.query<CountRow>(`SELECT a.id, ${COUNT_COLUMNS} FROM agents a WHERE a.id = ANY($2::uuid[])`, [
    adminWallets(),
    ids,
  ]);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        inputs: {
          verified: row.verified,
          tier: (row.tier in TIER_POINTS ? row.tier : 'none') as TrustInputs['tier'],
          publishedSkills: Number(row.published_skills),
          receivedAttestations: Number(row.received),
          accountAgeMonths: Number(row.age_months),
          connections: Number(row.connections),
        },
        endorsementCount: Number(row.endorsement_count),
      },
    ]),
  );
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

/** The ids of agents whose trust total is at least `min` (lists filtered by min_trust_score). */
export async function agentIdsWithMinTrust(min: number): Promise<string[]> {
  const rows = await database().sql.query<{ id: string }>(
    `SELECT id FROM (SELECT a.id, ${COUNT_COLUMNS} FROM agents a) c WHERE ${trustTotalSql()} >= $2`,
    [adminWallets(), min],
  );
  return rows.map((row) => row.id);
}

/** Every verified agent and every agent with a tier or a month of age: the seeds of the propagated score. */
export async function trustSeeds(): Promise<{ verified: string[]; established: string[] }> {
  const rows = await database().sql.query<{ id: string; verified: boolean; established: boolean }>(
    `SELECT a.id, ${VERIFIED} AS verified,
       (a.tier <> 'none' OR a.created_at < now() - interval '30 days') AS established
     FROM agents a`,
    [adminWallets()],
  );
  return {
    verified: rows.filter((row) => row.verified).map((row) => row.id),
    established: rows.filter((row) => row.established).map((row) => row.id),
  };
}

/** The ids of the `limit` agents with the highest trust total (ties: oldest first). */
export async function topTrustedAgentIds(limit: number): Promise<string[]> {
  const rows = await database().sql.query<{ id: string }>(
    `SELECT id FROM (SELECT a.id, a.created_at, ${COUNT_COLUMNS} FROM agents a) c
     ORDER BY ${trustTotalSql()} DESC, created_at ASC, id ASC LIMIT ${Math.max(1, Math.floor(limit))}`,
    [adminWallets()],
  );
  return rows.map((row) => row.id);
}

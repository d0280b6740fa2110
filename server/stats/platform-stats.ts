import { database } from '../core/db';
import type { Queryable } from '../core/db/sql-runner';

/**
 * GET /api/stats: live platform counters. Triggers add one delta row per statement that changes a
 * count (migration scale_maintained_counts), so the sum is exact at once; compactPlatformCounts()
 * folds the deltas every 10 s, so the read sums the rows of the last few seconds.
 */
export async function platformStats() {
  const rows = await database().sql.query<{ name: string; n: string | number }>(
    `SELECT name, sum(n) AS n FROM platform_counts GROUP BY name`,
  );
  const counts = new Map(rows.map((row) => [row.name, Number(row.n)]));
  const n = (key: string) => counts.get(key) ?? 0;
  return {
    agents: n('agents'),
    callable_agents: n('callable_agents'),
    wallets: n('wallets'),
    endorsements: n('endorsements'),
    attestations: n('attestations'),
    invocations: n('invocations'),
    // The contract analyzer is not built yet: nothing to count.
    scans: 0,
    wallets_tracked: n('wallets_tracked'),
    events: n('events'),
    generated_at: new Date().toISOString(),
  };
}

/** Folds the counters' delta rows into one row per counter (every 10 s; any instance, any overlap). */
export async function compactPlatformCounts(runner: Queryable): Promise<void> {
  await runner.query(
    `WITH gone AS (DELETE FROM platform_counts RETURNING name, n)
     INSERT INTO platform_counts (name, n) SELECT name, sum(n) FROM gone GROUP BY name`,
  );
}

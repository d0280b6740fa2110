import { database } from '../core/db';

/** GET /api/stats: live platform counters, counted from the tables themselves. */
export async function platformStats() {
  const [row] = await database().sql.query<Record<string, string | number | bigint>>(
    `SELECT
       (SELECT count(*) FROM agents) AS agents,
       (SELECT count(*) FROM agents WHERE is_callable) AS callable_agents,
       (SELECT count(DISTINCT owner_wallet) FROM agents) AS wallets,
       (SELECT count(*) FROM endorsements WHERE status = 'active') AS endorsements,
       (SELECT count(*) FROM attestations) AS attestations,
       (SELECT count(*) FROM invocations WHERE status = 'success') AS invocations,
       (SELECT count(*) FROM smart_money_wallets) AS wallets_tracked,
       (SELECT count(*) FROM events) AS events`,
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
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

import type { Address } from 'viem';
import type { ReadPart } from '../core/db/read-together';
import type { Queryable } from '../core/db/sql-runner';

// The calls a wallet made through the router and how many succeeded, maintained (migration
// wallet_invocation_counts): the invocation triggers add one delta row per wallet per changing statement, and
// compactWalletInvocationCounts() folds them into the wallet's one row every 10 s. A read is the folded row and the
// deltas of the last seconds: one per statement that touched the wallet (a group of free calls, a charge, a
// settlement), so a few thousand for a caller at a thousand calls a second, whatever its total; it is exact at once
// (the deltas commit with the calls).

/** The wallet's calls made and succeeded, as a part of a combined read (GET /api/v1/agents/me/stats). */
export function walletInvocationsPart(wallet: Address): ReadPart<{ made: number; succeeded: number }> {
  return {
    sql: (p) => {
      const w = p.add(wallet);
      return `SELECT json_build_object('made', coalesce(sum(made), 0), 'succeeded', coalesce(sum(succeeded), 0)) FROM (
          SELECT made, succeeded FROM wallet_invocation_counts WHERE wallet = ${w}
          UNION ALL SELECT made, succeeded FROM wallet_invocation_deltas WHERE wallet = ${w}) c`;
    },
    read: (value) => {
      const { made, succeeded } = value as { made: number | string; succeeded: number | string };
      return { made: Number(made), succeeded: Number(succeeded) };
    },
  };
}

/**
 * Folds the delta rows into one row per wallet, in one statement (a reader sees the deltas or their sum, never both
 * or neither). One fold at a time across instances (a transaction-scoped advisory lock; a fold that finds it taken
 * skips): two folds of a large backlog deleting the same rows could deadlock. Each delta row is deleted, so folded,
 * once, and the wallets' rows are written in wallet order.
 */
export async function compactWalletInvocationCounts(runner: Queryable): Promise<void> {
  await runner.query(
    `WITH locked AS (SELECT pg_try_advisory_xact_lock(hashtext('vs_wallet_invocation_fold:' || current_schema())) AS ok),
       gone AS (DELETE FROM wallet_invocation_deltas WHERE (SELECT ok FROM locked) RETURNING wallet, made, succeeded),
       folded AS (SELECT wallet, sum(made) AS made, sum(succeeded) AS succeeded FROM gone GROUP BY wallet)
     INSERT INTO wallet_invocation_counts (wallet, made, succeeded)
     SELECT wallet, made, succeeded FROM folded ORDER BY wallet
     ON CONFLICT (wallet) DO UPDATE SET made = wallet_invocation_counts.made + excluded.made,
       succeeded = wallet_invocation_counts.succeeded + excluded.succeeded`,
  );
}

/** The wallets whose maintained counts differ from their invocations (invariant checks: seed, chaos, tests; O(table)). */
export const MISCOUNTED_WALLETS_SQL = `SELECT wallet, i.made AS counted, m.made AS kept, i.succeeded AS counted_succeeded, m.succeeded AS kept_succeeded
  FROM (SELECT caller_wallet AS wallet, count(*) AS made, count(*) FILTER (WHERE status = 'success') AS succeeded
        FROM invocations GROUP BY caller_wallet) i
  FULL JOIN (SELECT wallet, sum(made) AS made, sum(succeeded) AS succeeded FROM (
        SELECT wallet, made, succeeded FROM wallet_invocation_counts
        UNION ALL SELECT wallet, made, succeeded FROM wallet_invocation_deltas) c GROUP BY wallet) m USING (wallet)
  WHERE coalesce(i.made, 0) <> coalesce(m.made, 0) OR coalesce(i.succeeded, 0) <> coalesce(m.succeeded, 0)`;

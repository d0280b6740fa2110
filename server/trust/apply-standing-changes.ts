import { withTransaction } from '../core/db';
import { deriveTrustEdges } from './derive-edges';

const STANDING_BATCH = 200;

/**
 * Drains standing_changes (filled by triggers, migration endorser_standing_changes, when a wallet that
 * endorses others may have gained or lost standing): re-derives the edge from such a wallet's agent into every
 * agent it endorses and marks their counts for recount, in the transaction that takes the marks, so a crash
 * loses none. Bounded to STANDING_BATCH wallets per transaction and `maxBatches` per run. Returns the wallets done.
 */
export async function applyStandingChanges(maxBatches = 10): Promise<number> {
  let done = 0;
  for (let i = 0; i < maxBatches; i++) {
    const wallets = await withTransaction(async (tx) => {
      const taken = await tx.sql.query<{ wallet: string }>(
        `WITH taken AS (
           DELETE FROM standing_changes WHERE id IN (
             SELECT id FROM standing_changes ORDER BY id LIMIT ${STANDING_BATCH} FOR UPDATE SKIP LOCKED)
           RETURNING wallet)
         SELECT DISTINCT wallet FROM taken`,
      );
      if (taken.length === 0) return 0;
      // A wallet's standing weighs only its own endorsements: the edge from its agent into each agent it endorses.
      const endorsed = await tx.sql.query<{ id: string; wallet: string }>(
        `SELECT DISTINCT subject_agent_id AS id, endorser_wallet AS wallet FROM endorsements
         WHERE endorser_wallet = ANY($1::text[]) AND status = 'active'`,
        [taken.map((row) => row.wallet)],
      );
      const bySubject = new Map<string, string[]>();
      for (const pair of endorsed) {
        const wallets = bySubject.get(pair.id);
        if (wallets) wallets.push(pair.wallet);
        else bySubject.set(pair.id, [pair.wallet]);
      }
      for (const [subject, wallets] of bySubject) await deriveTrustEdges(subject, wallets, tx.sql);
      if (endorsed.length) {
        await tx.sql.query(`INSERT INTO agent_stats_dirty (agent_id) SELECT DISTINCT unnest($1::uuid[])`, [
          endorsed.map((pair) => pair.id),
        ]);
      }
      return taken.length;
    });
    done += wallets;
    if (wallets < STANDING_BATCH) break;
  }
  return done;
}

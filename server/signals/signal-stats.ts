import type { ReadPart } from '../core/db/read-together';
import { microToClaw } from '../core/money';
import { accuracyPct } from '../leaderboard/score';

interface SignalStatsJson {
  published: number;
  resolved: number;
  correct: number;
  incorrect: number;
  stake: string | null;
  staked: string | null;
}

/** A wallet's signal record for GET /api/v1/agents/me/stats, as a part of a combined read. */
export function signalStatsPart(wallet: string) {
  const part: ReadPart<ReturnType<typeof signalStatsView>> = {
    sql: (p) => `SELECT json_build_object('published', pu.published, 'resolved', pu.resolved, 'correct', pu.correct,
         'incorrect', pu.incorrect, 'stake', pu.stake, 'staked', st.staked)
       FROM (SELECT count(*) AS published, count(*) FILTER (WHERE status = 'resolved') AS resolved,
               count(*) FILTER (WHERE outcome = 'correct') AS correct, count(*) FILTER (WHERE outcome = 'incorrect') AS incorrect,
               sum(stake)::text AS stake
             FROM signals WHERE publisher_wallet = ${p.add(wallet)}) pu,
         (SELECT sum(amount)::text AS staked FROM signal_stakes WHERE staker_wallet = ${p.add(wallet)}) st`,
    read: (value) => signalStatsView(value as SignalStatsJson),
  };
  return part;
}

function signalStatsView(row: SignalStatsJson) {
  return {
    published: row.published,
    resolved: row.resolved,
    correct: row.correct,
    accuracy_pct: accuracyPct(row.correct, row.incorrect),
    total_staked_claw: microToClaw(BigInt(row.stake ?? 0) + BigInt(row.staked ?? 0)),
  };
}

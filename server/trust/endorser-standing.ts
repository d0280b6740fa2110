import type { Address } from 'viem';
import type { Queryable } from '../core/db/sql-runner';

// Who counts as an endorser (docs/spec-decisions.md, Trust): an endorsement moves the endorsed agent's
// score (+10, and the trust-graph connection's +2) only when its endorser's wallet has standing, that is
// it holds or has done something that costs: an agent with a tier (platform tokens on the chain), CLAW
// received from someone else (a deposit; a payment for its work: an invocation by another wallet, a
// job won, a skill sold; a referral payout), or a paid call to another wallet's agent. The welcome grant
// is free for every wallet, so it does not count. The one SQL expression, used by the score and the graph.
// When any of these changes for a wallet that endorses, triggers (migration endorser_standing_changes, which
// repeats EARNED_REASONS) queue it in standing_changes and applyStandingChanges() (apply-standing-changes.ts) re-derives what it endorsed.

const EARNED_REASONS = `('deposit', 'job_payment', 'skill_purchase', 'skill_subscription', 'referral_payout')`;

/** A boolean SQL expression: the wallet (an SQL expression of a checksummed address) has standing. */
export function endorserStandingSql(wallet: string): string {
  return `(EXISTS (SELECT 1 FROM agents sa WHERE sa.owner_wallet = ${wallet} AND sa.tier <> 'none')
    OR EXISTS (SELECT 1 FROM invocations si WHERE si.caller_wallet = ${wallet} AND si.target_wallet <> ${wallet}
               AND si.status = 'success' AND si.fee > 0)
    OR EXISTS (SELECT 1 FROM invocations ri WHERE ri.target_agent_id IN (SELECT ra.id FROM agents ra WHERE ra.owner_wallet = ${wallet})
               AND ri.caller_wallet <> ${wallet} AND ri.status = 'success' AND ri.fee > 0)
    OR EXISTS (SELECT 1 FROM ledger_postings sp JOIN ledger_transactions st ON st.id = sp.transaction_id
               WHERE sp.account_id = 'wallet:' || ${wallet} AND sp.amount > 0 AND st.reason IN ${EARNED_REASONS}))`;
}

/** Whether an endorsement by `wallet` counts toward another agent's score now. */
export async function endorserHasStanding(wallet: Address, runner: Queryable): Promise<boolean> {
  const [row] = await runner.query<{ standing: boolean }>(`SELECT ${endorserStandingSql('$1')} AS standing`, [wallet]);
  return Boolean(row?.standing);
}

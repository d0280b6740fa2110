import type { SqlParams, Queryable } from '../core/db/sql-runner';
import { walletAccount } from '../credits/accounts';
import { releaseHold } from '../credits/release-hold';

/**
 * A family B skill's publishing stake goes back from `hold:skill_stake:<id>` to its author, once
 * (one idempotency key for the author's removal and an admin's rejection). `alongside` runs in the
 * same statement (it may refer to `txn`, empty when the stake was returned already). Returns what
 * went back: the stake, or 0 when it had been returned before.
 */
export async function returnSkillStake(
  skill: { id: string; authorWallet: string; stake: bigint },
  runner: Queryable,
  alongside?: (params: SqlParams) => string[],
): Promise<bigint> {
  const { applied } = await releaseHold(
    {
      hold: { type: 'skill_stake', id: skill.id },
      to: [{ account: walletAccount(skill.authorWallet), amount: skill.stake }],
      reason: 'skill_stake_return',
      ref: { type: 'skill', id: skill.id },
      idempotencyKey: `skill-stake-return:${skill.id}`,
      alongside,
    },
    runner,
  );
  return applied ? skill.stake : 0n;
}

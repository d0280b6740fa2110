import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { returnSkillStake } from './return-skill-stake';
import { canManage, requireSkill } from './skill-views';

/**
 * DELETE /api/v1/skills/{id} (an addition: the spec returns the publishing stake "on removal").
 * The author (or an admin) removes the skill; the stake goes back to the author in the same
 * statement, once.
 */
export async function removeSkill(caller: Caller, id: string) {
  const skill = await requireSkill(id, caller.wallet);
  if (!canManage(skill, caller.wallet)) throw new ApiError('forbidden', 'Only the skill’s author or an admin can remove it');
  const { sql } = database();
  const mark = (idParam: string, guard = '') =>
    `UPDATE skills SET removed_at = now() WHERE id = ${idParam}::uuid AND removed_at IS NULL ${guard} RETURNING id`;
  let returned = 0n;
  if (skill.stake > 0n) {
    returned = await returnSkillStake(skill, sql, (p) => [
      `removed AS (${mark(p.add(skill.id), 'AND EXISTS (SELECT 1 FROM txn)')})`,
    ]);
    if (returned === 0n) throw ApiError.notFound('Skill');
  } else {
    const rows = await sql.query(mark('$1'), [skill.id]);
    if (rows.length === 0) throw ApiError.notFound('Skill');
  }
  return { removed: true as const, skill_id: skill.id, stake_returned_claw: microToClaw(returned) };
}

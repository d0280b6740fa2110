import type { Address } from 'viem';
import { db, withTransaction, type Tx } from '../core/db';
import type { Prisma } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { returnSkillStake } from '../skills/return-skill-stake';
import { emit } from '../events/emit';
import { recordAdminAction } from './audit-log';

// Admin console: skill moderation. Hiding takes a skill out of every public list and detail (REST,
// MCP, profiles) without removing it; the safety scan's drafts are approved (activated) or rejected
// (removed, the family B stake returned to the author). Each change and its audit entry commit together.

export type SkillReviewView = 'flagged' | 'hidden' | 'all';

export async function listSkillsForModeration(input: { view: SkillReviewView; search?: string; page: number }) {
  const where: Prisma.SkillWhereInput = { removedAt: null };
  if (input.view === 'flagged') where.status = 'draft';
  if (input.view === 'flagged') where.NOT = { flagReasons: { isEmpty: true } };
  if (input.view === 'hidden') where.hiddenAt = { not: null };
  const q = input.search?.trim();
  if (q) where.name = { contains: q, mode: 'insensitive' };
  const [rows, total] = await Promise.all([
    db().skill.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: 25, skip: (input.page - 1) * 25 }),
    db().skill.count({ where }),
  ]);
  return {
    total,
    skills: rows.map((skill) => ({
      id: skill.id,
      name: skill.name,
      category: skill.category,
      author_wallet: skill.authorWallet,
      status: skill.status as 'active' | 'draft',
      flag_reasons: skill.flagReasons,
      hidden_at: skill.hiddenAt?.toISOString() ?? null,
      hidden_by: skill.hiddenBy,
      created_at: skill.createdAt.toISOString(),
    })),
  };
}

async function lockSkill(tx: Tx, id: string) {
  await tx.sql.query('SELECT id FROM skills WHERE id = $1::uuid FOR UPDATE', [id]);
  const skill = await tx.prisma.skill.findUnique({ where: { id } });
  if (!skill || skill.removedAt) throw ApiError.notFound('Skill');
  return skill;
}

/** Hides (or shows again) a skill; 409 when it already is in that state. */
export async function setSkillHidden(admin: Address, id: string, hidden: boolean, reason: string | null) {
  return withTransaction(async (tx) => {
    const skill = await lockSkill(tx, id);
    if (hidden === (skill.hiddenAt !== null)) {
      throw new ApiError('conflict', hidden ? 'The skill is already hidden' : 'The skill is not hidden');
    }
    const updated = await tx.prisma.skill.update({
      where: { id },
      data: hidden ? { hiddenAt: new Date(), hiddenBy: admin } : { hiddenAt: null, hiddenBy: null },
    });
    await recordAdminAction(
      {
        adminWallet: admin,
        action: hidden ? 'skill.hide' : 'skill.unhide',
        targetType: 'skill',
        targetId: id,
        details: { name: skill.name, ...(reason ? { reason } : {}) },
      },
      tx.prisma,
    );
    return { id, hidden_at: updated.hiddenAt?.toISOString() ?? null, hidden_by: updated.hiddenBy };
  });
}

async function lockFlaggedDraft(tx: Tx, id: string) {
  const skill = await lockSkill(tx, id);
  if (skill.status !== 'draft') throw new ApiError('conflict', 'Only a draft held by the safety scan can be reviewed');
  return skill;
}

/** Approves a draft the safety scan held back: the skill becomes active and `skill.published` is emitted. */
export async function approveSkill(admin: Address, id: string, reason: string | null) {
  return withTransaction(async (tx) => {
    const skill = await lockFlaggedDraft(tx, id);
    await tx.prisma.skill.update({ where: { id }, data: { status: 'active', flagReasons: [] } });
    const author = skill.authorAgentId
      ? await tx.prisma.agent.findUnique({ where: { id: skill.authorAgentId }, select: { handle: true } })
      : null;
    await emit(
      'skill.published',
      {
        skill_id: skill.id,
        name: skill.name,
        category: skill.category,
        pricing_type: skill.pricingType,
        price_claw: microToClaw(skill.price),
        author_wallet: skill.authorWallet,
        author_handle: author?.handle ?? null,
      },
      tx.sql,
    );
    await recordAdminAction(
      {
        adminWallet: admin,
        action: 'skill.approve',
        targetType: 'skill',
        targetId: id,
        details: { name: skill.name, flag_reasons: skill.flagReasons, ...(reason ? { reason } : {}) },
      },
      tx.prisma,
    );
    return { id, status: 'active' as const };
  });
}

/** Rejects a draft the safety scan held back: the skill is removed and a family B stake goes back to its author once. */
export async function rejectSkill(admin: Address, id: string, reason: string | null) {
  return withTransaction(async (tx) => {
    const skill = await lockFlaggedDraft(tx, id);
    await tx.prisma.skill.update({ where: { id }, data: { removedAt: new Date() } });
    // Returned once, whether the author removed the skill or an admin rejected it.
    const returned = skill.stake > 0n ? await returnSkillStake(skill, tx.sql) : 0n;
    await recordAdminAction(
      {
        adminWallet: admin,
        action: 'skill.reject',
        targetType: 'skill',
        targetId: id,
        details: {
          name: skill.name,
          flag_reasons: skill.flagReasons,
          stake_returned_claw: microToClaw(returned),
          ...(reason ? { reason } : {}),
        },
      },
      tx.prisma,
    );
    return { id, removed: true as const, stake_returned_claw: microToClaw(returned) };
  });
}

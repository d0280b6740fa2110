import type { Prisma } from '../core/db/generated/client';
import { db } from '../core/db';
import { isAdmin, presentSkills } from './skill-views';

export interface ListSkillsInput {
  q?: string;
  category?: string;
  pricingType?: string;
  status: 'active' | 'draft';
  sort: 'reputation' | 'newest' | 'price';
  limit: number;
  offset: number;
  viewer: string | null;
}

/**
 * Both families' skill lists (hidden skills excluded). Drafts are listed only to their author (every draft to admins); an
 * anonymous caller asking for drafts gets an empty list.
 */
export async function listSkills(input: ListSkillsInput) {
  // Skills an admin hid are in no list (the console lists them; docs/spec-decisions.md).
  const where: Prisma.SkillWhereInput = { removedAt: null, hiddenAt: null, status: input.status };
  if (input.status === 'draft' && !isAdmin(input.viewer)) {
    where.authorWallet = input.viewer ?? '__nobody__';
  }
  if (input.category && input.category !== 'all') where.category = input.category;
  if (input.pricingType) {
    where.pricingType = input.pricingType === 'one_time' ? { in: ['one_time', 'paid'] } : input.pricingType;
  }
  const q = input.q?.trim();
  if (q) {
    where.OR = [
      { name: { contains: q, mode: 'insensitive' } },
      { summary: { contains: q, mode: 'insensitive' } },
      { description: { contains: q, mode: 'insensitive' } },
      { tags: { has: q.toLowerCase() } },
    ];
  }
  const orderBy: Prisma.SkillOrderByWithRelationInput[] =
    input.sort === 'price'
      ? [{ price: 'asc' }, { createdAt: 'desc' }, { id: 'asc' }]
      : input.sort === 'reputation'
        ? [{ rating: 'desc' }, { installCount: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }]
        : [{ createdAt: 'desc' }, { id: 'asc' }];
  const [skills, total] = await Promise.all([
    db().skill.findMany({ where, orderBy, take: input.limit, skip: input.offset }),
    db().skill.count({ where }),
  ]);
  return { skills: await presentSkills(skills, input.viewer), total };
}

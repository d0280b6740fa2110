import { database } from '../core/db';
import { boundedTotal, countersTotal, sqlCountUpTo } from '../core/db/list-totals';
import { containsPattern, SqlParams } from '../core/db/sql-runner';
import { PRICING_TYPES, SKILL_CATEGORIES_B } from '../schemas/enums';
import { skillColumns, skillFromRow } from './skill-row';
import { isAdmin, presentSkill } from './skill-views';

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

// Ties by id; newest and reputation walk their (status, ...) indexes (migration list_totals).
const ORDER = {
  newest: 's.created_at DESC, s.id ASC',
  reputation: 's.rating DESC, s.install_count DESC, s.created_at DESC, s.id ASC',
  price: 's.price ASC, s.created_at DESC, s.id ASC',
} as const;

/**
 * Both families' skill lists (hidden skills excluded). Drafts are listed only to their author (every draft to admins); an
 * anonymous caller asking for drafts gets an empty list. One raw read with the authors' handles (server/skills/skill-row.ts): Prisma took
 * 4-10 ms to map a page that the statement fetched in 1 ms at 10,000 skills.
 */
export async function listSkills(input: ListSkillsInput) {
  const p = new SqlParams();
  // Skills an admin hid are in no list (the console lists them; docs/spec-decisions.md).
  const where = ['s.removed_at IS NULL', 's.hidden_at IS NULL', `s.status = ${p.add(input.status)}`];
  if (input.status === 'draft' && !isAdmin(input.viewer)) where.push(`s.author_wallet = ${p.add(input.viewer ?? '__nobody__')}`);
  if (input.category && input.category !== 'all') where.push(`s.category = ${p.add(input.category)}`);
  if (input.pricingType) {
    where.push(
      `s.pricing_type = ANY(${p.add(input.pricingType === 'one_time' ? ['one_time', 'paid'] : [input.pricingType])}::text[])`,
    );
  }
  const q = input.q?.trim();
  if (q) {
    const like = p.add(containsPattern(q));
    where.push(
      `(s.name ILIKE ${like} OR s.summary ILIKE ${like} OR s.description ILIKE ${like} OR ${p.add(q.toLowerCase())} = ANY(s.tags))`,
    );
  }
  const filter = `WHERE ${where.join(' AND ')}`;
  const { sql } = database();
  // The listed skills (active, not removed, not hidden) by category and pricing: an exact sum of their
  // counters; words or drafts count the matches up to a bound.
  const [rows, counted] = await Promise.all([
    sql.query<Record<string, unknown> & { author_handle: string | null }>(
      `SELECT ${skillColumns('s')}, a.handle AS author_handle
       FROM skills s LEFT JOIN agents a ON a.id = s.author_agent_id ${filter} ORDER BY ${ORDER[input.sort]}
       LIMIT ${Math.floor(input.limit)} OFFSET ${Math.floor(input.offset)}`,
      p.values,
    ),
    input.status === 'active' && !q
      ? countersTotal(sql, listedSkillCounters(input.category, input.pricingType))
      : boundedTotal(sqlCountUpTo(sql, `skills s ${filter}`, p.values), input),
  ]);
  return {
    skills: rows.map((row) => presentSkill(skillFromRow(row), row.author_handle, { viewer: input.viewer })),
    total: counted.total,
    total_exact: counted.totalExact,
  };
}

/** The counters (migration list_totals) of the listed skills of a category and a pricing type (all when unset). */
function listedSkillCounters(category: string | undefined, pricingType: string | undefined): string[] {
  const categories = category && category !== 'all' ? [category] : SKILL_CATEGORIES_B;
  const pricing = !pricingType ? PRICING_TYPES : pricingType === 'one_time' ? ['one_time', 'paid'] : [pricingType];
  return categories.flatMap((c) => pricing.map((type) => `skills:${c}:${type}`));
}

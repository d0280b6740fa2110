import type { Address } from 'viem';
import { db } from '../core/db';
import type { Skill } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';

export type PricingType = 'free' | 'paid' | 'one_time' | 'subscription';

export function isAdmin(wallet: string | null | undefined): boolean {
  if (!wallet) return false;
  return currentRuntime().config.ADMIN_WALLETS.some((admin) => admin.toLowerCase() === wallet.toLowerCase());
}

/** The author or an admin: who sees drafts, scan reasons and the payload of any skill. */
export function canManage(skill: Pick<Skill, 'authorWallet'>, viewer: string | null | undefined): boolean {
  return !!viewer && (skill.authorWallet.toLowerCase() === viewer.toLowerCase() || isAdmin(viewer));
}

/** A skill record; the payload and the scan's reasons only for those allowed to see them. */
export function presentSkill(
  skill: Skill,
  authorHandle: string | null,
  options: { viewer?: string | null; withPayload?: boolean } = {},
) {
  const manager = canManage(skill, options.viewer);
  return {
    id: skill.id,
    name: skill.name,
    summary: skill.summary,
    description: skill.description,
    category: skill.category,
    tags: skill.tags,
    author_wallet: skill.authorWallet,
    author_handle: authorHandle,
    rating: skill.rating,
    install_count: skill.installCount,
    pricing_type: skill.pricingType as PricingType,
    price_claw: microToClaw(skill.price),
    repo_url: skill.repoUrl,
    status: skill.status as 'active' | 'draft',
    created_at: skill.createdAt.toISOString(),
    integration_type: skill.integrationType as 'api' | 'prompt_pack' | 'module' | 'workflow' | null,
    version: skill.version,
    ...(manager || options.withPayload ? { integration_payload: skill.integrationPayload as Record<string, unknown> } : {}),
    ...(manager ? { review: { flagged: skill.flagReasons.length > 0, reasons: skill.flagReasons } } : {}),
  };
}

/** Author handles for a set of skills. */
export async function authorHandles(skills: Skill[]): Promise<Map<string, string>> {
  const ids = [...new Set(skills.map((skill) => skill.authorAgentId).filter((id): id is string => !!id))];
  if (ids.length === 0) return new Map();
  const agents = await db().agent.findMany({ where: { id: { in: ids } }, select: { id: true, handle: true } });
  return new Map(agents.map((agent) => [agent.id, agent.handle]));
}

/** A skill that exists and was not removed; drafts and hidden skills only for their author and admins (404 otherwise). */
export async function requireSkill(id: string, viewer: Address | string | null = null): Promise<Skill> {
  const skill = await db().skill.findUnique({ where: { id } });
  if (!skill || skill.removedAt) throw ApiError.notFound('Skill');
  if (skill.status !== 'active' && !canManage(skill, viewer)) throw ApiError.notFound('Skill');
  // Hidden by an admin: gone for everyone but its author and the admins (who may still remove it).
  if (skill.hiddenAt && !canManage(skill, viewer)) throw ApiError.notFound('Skill');
  return skill;
}

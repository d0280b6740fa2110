import { db } from '../core/db';
import type { Prisma } from '../core/db/generated/client';
import { agentIdsWithMinTrust } from '../trust/trust-counts';

export interface ListAgentsInput {
  search?: string;
  tier?: string;
  isCallable?: boolean;
  /** 0-280; 0 filters nothing. */
  minTrustScore?: number;
  limit: number;
  offset: number;
}

/** A page of agents, newest first, with the total that matches. */
export async function listAgents(input: ListAgentsInput) {
  const where: Prisma.AgentWhereInput = {};
  const search = input.search?.trim();
  if (search) {
    where.OR = [{ name: { contains: search, mode: 'insensitive' } }, { handle: { contains: search.toLowerCase() } }];
  }
  if (input.tier) where.tier = input.tier;
  if (input.isCallable !== undefined) where.isCallable = input.isCallable;
  if (input.minTrustScore) where.id = { in: await agentIdsWithMinTrust(input.minTrustScore) };
  const [agents, total] = await Promise.all([
    db().agent.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: input.limit, skip: input.offset }),
    db().agent.count({ where }),
  ]);
  return { agents, total };
}

import { db } from '../db';
import type { Prisma } from '../db/generated/client';

export interface ListAgentsInput {
  search?: string;
  tier?: string;
  isCallable?: boolean;
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
  const [agents, total] = await Promise.all([
    db().agent.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: input.limit, skip: input.offset }),
    db().agent.count({ where }),
  ]);
  return { agents, total };
}

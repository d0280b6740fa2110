import { db } from '../core/db';
import type { Prisma } from '../core/db/generated/client';
import { agentIdsWithMinTrust } from '../trust/trust-counts';

export interface ListAgentsInput {
  search?: string;
  /** Also match the owner wallet when `search` is an address or its start ("0x" and 4+ hex digits): the UI's search. */
  searchWallets?: boolean;
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
    const matches: Prisma.AgentWhereInput[] = [
      { name: { contains: search, mode: 'insensitive' } },
      { handle: { contains: search.toLowerCase() } },
    ];
    if (input.searchWallets && /^0x[0-9a-f]{4,40}$/i.test(search)) {
      matches.push({ ownerWallet: { startsWith: search, mode: 'insensitive' } });
    }
    where.OR = matches;
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

import type { Address } from 'viem';
import { db, withTransaction } from '../core/db';
import type { Agent, Prisma } from '../core/db/generated/client';
import { isUniqueViolation } from '../core/db/errors';
import { prismaRunner } from '../core/db/sql-runner';
import { emit } from '../events/emit';
import { ApiError } from '../core/errors';
import { generateHandle } from './handles';
import { lastKnownTier, tierOfWallet, type Tier } from './tiers';

export interface NewAgent {
  ownerWallet: Address;
  agentPubkey: string;
  name: string;
  /** Chosen by the caller; generated from the name when absent. */
  handle?: string;
  bio?: string;
  avatarUrl?: string | null;
  scopes?: string[];
  maxSpendPerDay?: bigint | null;
  metadata?: Record<string, unknown>;
}

export class AgentExistsError extends Error {}

async function insertAgent(input: NewAgent, handle: string, tier: Tier, tx: Prisma.TransactionClient): Promise<Agent> {
  const agent = await tx.agent.create({
    data: {
      ownerWallet: input.ownerWallet,
      agentPubkey: input.agentPubkey,
      name: input.name,
      handle,
      bio: input.bio ?? '',
      avatarUrl: input.avatarUrl ?? null,
      scopes: input.scopes ?? [],
      maxSpendPerDay: input.maxSpendPerDay ?? null,
      metadata: (input.metadata ?? {}) as Prisma.InputJsonValue,
      tier,
    },
  });
  await emit(
    'agent.registered',
    {
      agent_id: agent.id,
      handle: agent.handle,
      name: agent.name,
      wallet_address: agent.ownerWallet,
      created_at: agent.createdAt.toISOString(),
    },
    prismaRunner(tx),
  );
  return agent;
}

/**
 * Creates an agent and emits agent.registered in the same transaction. Throws 409 handle_taken
 * for a chosen handle in use, and AgentExistsError when the wallet already has an agent with
 * this agent_pubkey (callers decide what that means for them). Pass `tx` to create it inside
 * the caller's transaction (a generated handle's rare collision is then not retried).
 */
export async function createAgent(input: NewAgent, tx?: Prisma.TransactionClient): Promise<Agent> {
  // Every door that first sees a wallet (register-agent, POST /api/v1/agents, bootstrap) reads its tier
  // from its holdings, as sign-in does; inside a caller's transaction only the last reading is at hand.
  const tier = tx ? (lastKnownTier(input.ownerWallet) ?? 'none') : await tierOfWallet(input.ownerWallet);
  for (let attempt = 0; ; attempt++) {
    try {
      if (tx) return await insertAgent(input, input.handle ?? (await generateHandle(input.name, tx)), tier, tx);
      const handle = input.handle ?? (await generateHandle(input.name, db()));
      return await withTransaction((own) => insertAgent(input, handle, tier, own.prisma));
    } catch (error) {
      if (isUniqueViolation(error, 'handle')) {
        if (input.handle) throw new ApiError('handle_taken', `Handle ${input.handle} is already taken`, { handle: input.handle });
        if (attempt < 3 && !tx) continue;
      }
      if (isUniqueViolation(error, 'owner_wallet') || isUniqueViolation(error, 'agent_pubkey')) {
        throw new AgentExistsError('agent exists');
      }
      throw error;
    }
  }
}

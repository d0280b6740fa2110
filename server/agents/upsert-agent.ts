import { db } from '../core/db';
import type { Prisma } from '../core/db/generated/client';
import type { Caller } from '../core/caller';
import { AgentExistsError, createAgent } from './create-agent';
import { walletPubkey } from './register-agent';

export interface UpsertAgentInput {
  agentName?: string;
  scopes?: string[];
  maxSpendPerDay?: bigint | null;
  metadata?: Record<string, unknown>;
}

/** The agent_pubkey a caller acts for: the token's, or the wallet's own for wallet-only credentials. */
export function callerPubkey(caller: Caller): string {
  return caller.agentPubkey ?? walletPubkey(caller.wallet);
}

/** POST /api/v1/agents: creates the caller's agent, or updates it when it exists (idempotent). */
export async function upsertAgent(caller: Caller, input: UpsertAgentInput) {
  const key = { ownerWallet: caller.wallet, agentPubkey: callerPubkey(caller) };
  const changes = {
    name: input.agentName,
    scopes: input.scopes,
    maxSpendPerDay: input.maxSpendPerDay,
    metadata: input.metadata as Prisma.InputJsonValue | undefined,
  };
  const existing = await db().agent.findUnique({ where: { ownerWallet_agentPubkey: key } });
  if (existing) {
    const agent = await db().agent.update({ where: { id: existing.id }, data: changes });
    return { agent, created: false };
  }
  try {
    const agent = await createAgent({
      ...key,
      name: input.agentName ?? defaultAgentName(caller),
      scopes: input.scopes ?? [...caller.scopes],
      maxSpendPerDay: input.maxSpendPerDay ?? caller.maxSpendPerDay,
      metadata: input.metadata,
    });
    return { agent, created: true };
  } catch (error) {
    // A concurrent call created it first: this call updates, as a repeat would.
    if (!(error instanceof AgentExistsError)) throw error;
    const agent = await db().agent.update({ where: { ownerWallet_agentPubkey: key }, data: changes });
    return { agent, created: false };
  }
}

export function defaultAgentName(caller: Caller): string {
  return `agent-${caller.wallet.slice(2, 8).toLowerCase()}`;
}

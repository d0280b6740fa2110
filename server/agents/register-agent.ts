import type { Address } from 'viem';
import { ApiError } from '../core/errors';
import { AgentExistsError, createAgent } from './create-agent';
import { findAgent, primaryAgentOf } from './find-agent';

export interface RegisterAgentInput {
  agentName: string;
  /** The wallet that signed `Register agent <agentName> <ts>` (the REST door checked it). */
  walletAddress: Address;
  handle?: string;
  bio?: string;
  avatarUrl?: string;
}

/** The agent_pubkey of an agent registered through family A, which knows only the wallet. */
export function walletPubkey(wallet: Address): string {
  return `wallet:${wallet.toLowerCase()}`;
}

/**
 * The conflicts of a registration (409), checked before the signature is (the endpoint's
 * beforeSignature), so a 409 costs the client nothing.
 */
export async function assertMayRegister(input: Pick<RegisterAgentInput, 'walletAddress' | 'handle'>): Promise<void> {
  const existing = await primaryAgentOf(input.walletAddress);
  if (existing) {
    throw new ApiError('conflict', 'This wallet already has a registered agent', {
      agent_id: existing.id,
      handle: existing.handle,
    });
  }
  if (input.handle && (await findAgent(input.handle))) {
    throw new ApiError('handle_taken', `Handle ${input.handle} is already taken`, { handle: input.handle });
  }
}

// POST /api/register-agent: the wallet signed `Register agent <agentName> <ts>`.
export async function registerAgent(input: RegisterAgentInput) {
  await assertMayRegister(input);
  try {
    return await createAgent({
      ownerWallet: input.walletAddress,
      agentPubkey: walletPubkey(input.walletAddress),
      name: input.agentName,
      handle: input.handle,
      bio: input.bio,
      avatarUrl: input.avatarUrl,
    });
  } catch (error) {
    if (error instanceof AgentExistsError) throw new ApiError('conflict', 'This wallet already has a registered agent');
    throw error;
  }
}

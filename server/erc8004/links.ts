import { encodeFunctionData, type Hex } from 'viem';
import { requireAgent } from '../agents/find-agent';
import type { Caller } from '../core/caller';
import { database, db } from '../core/db';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { deriveTrustEdges } from '../trust/derive-edges';
import { identityAbi, parseRegistryRef, parseTokenId, readIdentity, registryRef, requireChain } from './registry';

// Linking a Vouchsafe agent to an ERC-8004 identity, non-custodially (docs/erc8004.md): without an
// agentId the owner gets the unsigned register(agentURI) transaction to sign with its own wallet;
// with one, the chain must show the owner's wallet as the token's owner or its agentWallet.

export interface Erc8004Ref {
  agent_id: string;
  agent_registry: string;
}

/** The links of a page of agents (the `erc8004` field of both families' records). */
export async function loadLinks(agentIds: string[]): Promise<Map<string, Erc8004Ref>> {
  if (agentIds.length === 0) return new Map();
  const rows = await db().erc8004Link.findMany({ where: { agentId: { in: agentIds } } });
  return new Map(
    rows.map((row) => [row.agentId, { agent_id: row.tokenId, agent_registry: `eip155:${row.chainId}:${row.registry}` }]),
  );
}

export async function linkOf(agentId: string): Promise<Erc8004Ref | null> {
  return (await loadLinks([agentId])).get(agentId) ?? null;
}

/** The agent's registration file URL (its ERC-8004 agentURI). */
export function agentUri(agentId: string): string {
  return `${currentRuntime().config.PUBLIC_BASE_URL}/api/v1/agents/${agentId}/registration.json`;
}

export interface LinkInput {
  erc8004_agent_id?: string | number;
  agent_registry?: string;
}

export async function linkAgent(caller: Caller, ref: string, input: LinkInput) {
  const agent = await requireAgent(ref);
  if (agent.ownerWallet !== caller.wallet) throw new ApiError('forbidden', 'Only the agent owner can link it');
  const context = await requireChain();
  const registry = parseRegistryRef(input.agent_registry, context);
  if (input.erc8004_agent_id === undefined) {
    const uri = agentUri(agent.id);
    const data: Hex = encodeFunctionData({ abi: identityAbi(), functionName: 'register', args: [uri] });
    return {
      linked: false,
      erc8004: await linkOf(agent.id),
      agent_uri: uri,
      transaction: { chain_id: context.chainId, from: caller.wallet, to: registry, data, value: '0' },
      next: 'Sign and send the transaction from the owner wallet, read agentId from its Registered event, then POST again with erc8004_agent_id.',
    };
  }
  const tokenId = parseTokenId(input.erc8004_agent_id);
  const identity = await readIdentity(context, registry, tokenId);
  if (!identity) throw new ApiError('unprocessable', 'No such ERC-8004 agent in this registry', { field: 'erc8004_agent_id' });
  const via: 'owner' | 'agent_wallet' | null =
    identity.owner === agent.ownerWallet ? 'owner' : identity.agentWallet === agent.ownerWallet ? 'agent_wallet' : null;
  if (!via) {
    throw new ApiError('forbidden', 'The owner wallet neither owns this ERC-8004 agent nor is its agentWallet', {
      token_owner: identity.owner,
      agent_wallet: identity.agentWallet,
    });
  }
  const taken = await db().erc8004Link.findUnique({
    where: { chainId_registry_tokenId: { chainId: context.chainId, registry, tokenId: tokenId.toString() } },
  });
  if (taken && taken.agentId !== agent.id) throw new ApiError('conflict', 'This ERC-8004 agent is linked to another agent');
  const fields = { chainId: context.chainId, registry, tokenId: tokenId.toString(), via, verifiedWallet: agent.ownerWallet };
  const before = await db().erc8004Link.findUnique({ where: { agentId: agent.id } });
  await db().erc8004Link.upsert({ where: { agentId: agent.id }, create: { agentId: agent.id, ...fields }, update: fields });
  await deriveReviewerEdges(agent.id, before ? [before, fields] : [fields]);
  return {
    linked: true,
    erc8004: { agent_id: tokenId.toString(), agent_registry: registryRef(context, registry) },
    via,
    agent_uri: identity.agentUri || null,
  };
}

export async function unlinkAgent(caller: Caller, ref: string) {
  const agent = await requireAgent(ref);
  if (agent.ownerWallet !== caller.wallet) throw new ApiError('forbidden', 'Only the agent owner can unlink it');
  const before = await db().erc8004Link.findUnique({ where: { agentId: agent.id } });
  await db().erc8004Link.deleteMany({ where: { agentId: agent.id } });
  if (before) await deriveReviewerEdges(agent.id, [before]);
  return { linked: false, erc8004: null };
}

/**
 * The trust edges into `agentId` from the reviewers of the tokens' feedback (derive-edges.ts): a link made, moved
 * or dropped changes whose ERC-8004 feedback counts for the agent.
 */
async function deriveReviewerEdges(agentId: string, tokens: { chainId: number; registry: string; tokenId: string }[]) {
  const { sql } = database();
  for (const token of tokens) {
    const reviewers = await sql.query<{ client: string }>(
      `SELECT DISTINCT client_address AS client FROM erc8004_feedback
       WHERE chain_id = $1 AND identity_registry = $2 AND token_id = $3`,
      [token.chainId, token.registry, token.tokenId],
    );
    await deriveTrustEdges(
      agentId,
      reviewers.map((row) => row.client),
      sql,
    );
  }
}

import type { Address } from 'viem';
import { db } from '../core/db';
import type { Agent } from '../core/db/generated/client';
import { ApiError } from '../core/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HANDLE = /^[a-z0-9-]{1,64}$/;

/** What a path's agent reference names: a UUID or a handle (case-insensitive); null when it can name no agent. */
export function parseAgentRef(ref: string): { id: string } | { handle: string } | null {
  if (UUID.test(ref)) return { id: ref.toLowerCase() };
  const handle = ref.toLowerCase();
  return HANDLE.test(handle) ? { handle } : null;
}

/** An agent by UUID or by handle (case-insensitive); null when there is none. */
export async function findAgent(ref: string): Promise<Agent | null> {
  const where = parseAgentRef(ref);
  return where ? db().agent.findUnique({ where }) : null;
}

export async function requireAgent(ref: string): Promise<Agent> {
  const agent = await findAgent(ref);
  if (!agent) throw ApiError.notFound('Agent');
  return agent;
}

/** The wallet's agent as family A sees it: its oldest. */
export function primaryAgentOf(wallet: Address): Promise<Agent | null> {
  return db().agent.findFirst({ where: { ownerWallet: wallet }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** Every agent of the wallet, oldest first (the first is the one family A sees). */
export function agentsOfWallet(wallet: Address): Promise<Agent[]> {
  return db().agent.findMany({ where: { ownerWallet: wallet }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** The id and handle of the agents of these wallets (either case), oldest first. */
export function agentHandlesOfWallets(wallets: string[]): Promise<{ id: string; handle: string; ownerWallet: string }[]> {
  return db().agent.findMany({
    where: { ownerWallet: { in: [...wallets, ...wallets.map((w) => w.toLowerCase())] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, handle: true, ownerWallet: true },
  });
}

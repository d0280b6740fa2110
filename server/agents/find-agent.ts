import type { Address } from 'viem';
import { database, db } from '../core/db';
import type { Agent } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { agentColumns, agentFromRow } from './agent-row';

/** A UUID in any case: what a path's or a cursor's id must be. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HANDLE = /^[a-z0-9-]{1,64}$/;

/** What a path's agent reference names: a UUID or a handle (case-insensitive); null when it can name no agent. */
export function parseAgentRef(ref: string): { id: string } | { handle: string } | null {
  if (UUID.test(ref)) return { id: ref.toLowerCase() };
  const handle = ref.toLowerCase();
  return HANDLE.test(handle) ? { handle } : null;
}

// One prepared statement per key: at 100,000 agents one agent took 0.43 ms this way, 1.47 ms through Prisma's
// findUnique (its query planning and mapping in the process), on every read of an agent by path.
const BY_ID = `SELECT ${agentColumns('a')} FROM agents a WHERE a.id = $1::uuid`;
const BY_HANDLE = `SELECT ${agentColumns('a')} FROM agents a WHERE a.handle = $1`;

/** An agent by UUID or by handle (case-insensitive); null when there is none. */
export async function findAgent(ref: string): Promise<Agent | null> {
  const where = parseAgentRef(ref);
  if (!where) return null;
  const [row] = await database().sql.query<Record<string, unknown>>(
    'id' in where ? BY_ID : BY_HANDLE,
    ['id' in where ? where.id : where.handle],
    { prepare: true },
  );
  return row ? agentFromRow(row) : null;
}

export async function requireAgent(ref: string): Promise<Agent> {
  const agent = await findAgent(ref);
  if (!agent) throw ApiError.notFound('Agent');
  return agent;
}

const OLDEST_OF_WALLET = `SELECT ${agentColumns('a')} FROM agents a WHERE a.owner_wallet = $1 ORDER BY a.created_at, a.id LIMIT 1`;

/** The wallet's agent as family A sees it: its oldest. */
export async function primaryAgentOf(wallet: Address): Promise<Agent | null> {
  const [row] = await database().sql.query<Record<string, unknown>>(OLDEST_OF_WALLET, [wallet], { prepare: true });
  return row ? agentFromRow(row) : null;
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

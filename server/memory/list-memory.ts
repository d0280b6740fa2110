import { parseAgentRef } from '../agents/find-agent';
import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { iso, LIVE, usageView } from './memory-views';
import { assertOwner } from './owned-memory';

interface ListRow {
  id: string;
  owner_wallet: string;
  /** Empty unless the caller owns the agent: another wallet's entries are never read. */
  keys: { key: string; size_bytes: number; expires_at: string | null; updated_at: string }[];
}

/** GET /api/v1/agents/{id}/memory: the live keys (no values) and the usage; one statement with the owner check. */
export async function listMemory(caller: Caller, ref: string) {
  const where = parseAgentRef(ref);
  const [agent] = where
    ? await database().sql.query<ListRow>(
        `SELECT a.id, a.owner_wallet,
           (SELECT coalesce(json_agg(json_build_object('key', m.key, 'size_bytes', m.size_bytes, 'expires_at', m.expires_at,
              'updated_at', m.updated_at) ORDER BY m.key), '[]')
            FROM memory_entries m WHERE m.agent_id = a.id AND a.owner_wallet = $2 AND ${LIVE}) AS keys
         FROM agents a WHERE ${'id' in where ? 'a.id = $1::uuid' : 'a.handle = $1'}`,
        ['id' in where ? where.id : where.handle, caller.wallet],
        { prepare: true },
      )
    : [];
  if (!agent) throw ApiError.notFound('Agent');
  assertOwner(caller, { ownerWallet: agent.owner_wallet });
  const { keys } = agent;
  const bytes = keys.reduce((total, row) => total + Number(row.size_bytes), 0);
  return {
    agent_id: agent.id,
    keys: keys.map((row) => ({
      key: row.key,
      size_bytes: Number(row.size_bytes),
      expires_at: iso(row.expires_at),
      updated_at: iso(row.updated_at)!,
    })),
    count: keys.length,
    usage: usageView(bytes),
  };
}

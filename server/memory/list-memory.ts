import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { iso, LIVE, usageView, type Row } from './memory-views';
import { ownedAgent } from './owned-memory';

/** GET /api/v1/agents/{id}/memory: the live keys (no values) and the usage. */
export async function listMemory(caller: Caller, ref: string) {
  const agent = await ownedAgent(caller, ref);
  const rows = await database().sql.query<Row>(
    `SELECT key, size_bytes, expires_at, updated_at FROM memory_entries WHERE agent_id = $1::uuid AND ${LIVE} ORDER BY key`,
    [agent.id],
  );
  const bytes = rows.reduce((total, row) => total + Number(row.size_bytes), 0);
  return {
    agent_id: agent.id,
    keys: rows.map((row) => ({
      key: row.key,
      size_bytes: Number(row.size_bytes),
      expires_at: iso(row.expires_at),
      updated_at: iso(row.updated_at)!,
    })),
    count: rows.length,
    usage: usageView(bytes),
  };
}

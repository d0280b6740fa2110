import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { LIVE } from './memory-views';
import { checkKey, ownedAgent } from './owned-memory';

/** DELETE one key (404 when it is absent or expired). */
export async function deleteMemory(caller: Caller, ref: string, key: string) {
  const agent = await ownedAgent(caller, ref);
  checkKey(key);
  const rows = await database().sql.query<{ live: boolean }>(
    `DELETE FROM memory_entries WHERE agent_id = $1::uuid AND key = $2 RETURNING ${LIVE} AS live`,
    [agent.id, key],
  );
  if (!rows[0]?.live) throw ApiError.notFound('Memory key');
  return { agent_id: agent.id, key, deleted: true as const };
}

/** DELETE all keys. */
export async function clearMemory(caller: Caller, ref: string) {
  const agent = await ownedAgent(caller, ref);
  const rows = await database().sql.query<{ live: boolean }>(
    `DELETE FROM memory_entries WHERE agent_id = $1::uuid RETURNING ${LIVE} AS live`,
    [agent.id],
  );
  return { agent_id: agent.id, cleared: rows.filter((row) => row.live).length };
}

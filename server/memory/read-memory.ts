import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { entryView, LIVE, type Row } from './memory-views';
import { checkKey, ownedAgent } from './owned-memory';

/** GET one key; an expired key is deleted and answers 404. */
export async function readMemory(caller: Caller, ref: string, key: string) {
  const agent = await ownedAgent(caller, ref);
  checkKey(key);
  const { sql } = database();
  await sql.query(`DELETE FROM memory_entries WHERE agent_id = $1::uuid AND key = $2 AND NOT ${LIVE}`, [agent.id, key]);
  const [row] = await sql.query<Row>(`SELECT * FROM memory_entries WHERE agent_id = $1::uuid AND key = $2`, [agent.id, key]);
  if (!row) throw ApiError.notFound('Memory key');
  return entryView(row);
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAgentStatsBatch } from '../server/trust/trust-counts';
import { startTestApp, type TestApp } from './harness';

// The settings every pooled PostgreSQL session gets (server/core/db/session-options.ts). PostgreSQL only:
// PGlite has no JIT.
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('PostgreSQL sessions (skipped on PGlite)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('run without JIT: no statement is compiled with LLVM, however high its estimated cost', async () => {
    const [setting] = await app.database.sql.query<{ jit: string }>('SHOW jit');
    expect(setting!.jit).toBe('off');
    // The statement the agent_stats refresh runs every 2 s (on the large preset its estimate passed
    // jit_above_cost and each run compiled for 0.75 s), explained with every cost past the threshold.
    const statements: string[] = [];
    await refreshAgentStatsBatch({ query: async (text: string) => (statements.push(text), []) } as never);
    const plan = await app.database.sql.withConnection(async (connection) => {
      await connection.query('BEGIN');
      try {
        await connection.query('SET LOCAL jit_above_cost = 0');
        return await connection.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statements[0]}`, [[]]);
      } finally {
        await connection.query('ROLLBACK');
      }
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).not.toMatch(/^JIT:/m);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness';
import { ASYNC_COMMIT } from './async-commit';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('an asynchronous commit', () => {
  it('is asynchronous only on PostgreSQL: on PGlite an application crash is a database crash', async () => {
    const [row] = await app.database.sql.query<{ set: string; now: string }>(
      `SELECT ${ASYNC_COMMIT} AS set, current_setting('synchronous_commit') AS now`,
    );
    const pglite = app.database.kind === 'pglite';
    expect(row).toEqual({ set: pglite ? 'on' : 'off', now: pglite ? 'on' : 'off' });
    // the next statement commits durably again on both
    const [next] = await app.database.sql.query<{ now: string }>(`SELECT current_setting('synchronous_commit') AS now`);
    expect(next!.now).toBe('on');
  });
});

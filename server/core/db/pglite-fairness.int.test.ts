import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteInstance, openDatabase, type Database } from './open';

// PGlite runs on the server's thread and drains its statement queue through promise callbacks; the
// service's database lets the event loop turn while a long queue drains, so sockets, timers and health
// probes are served in between instead of after the whole burst.
describe('the embedded database under a burst of statements', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ DATA_DIR: '' }, { pglite: await createPgliteInstance(), migrate: false });
  });
  afterAll(() => database.close());

  it('serves a timer while 300 queued statements drain, and answers every statement in order', async () => {
    let finished = 0;
    let finishedWhenTimerRan = -1;
    setTimeout(() => (finishedWhenTimerRan = finished), 0);
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        database.sql
          .query<{ n: string; i: number }>('SELECT count(*)::text AS n, $1::int AS i FROM generate_series(1, 20000)', [i])
          .then((rows) => {
            finished++;
            return rows[0]!;
          }),
      ),
    );
    expect(results.map((row) => row.i)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(results.every((row) => row.n === '20000')).toBe(true);
    // The timer ran while the queue was still draining, not after it.
    expect(finishedWhenTimerRan).toBeGreaterThanOrEqual(0);
    expect(finishedWhenTimerRan).toBeLessThan(300);
  });
});

import { describe, expect, it } from 'vitest';
import { workerRestarts, WORKER_RESTARTS } from './worker-restarts';

describe('workerRestarts', () => {
  const policy = { healthyAfterMs: 30_000, firstDelayMs: 1000, maxDelayMs: 8000, giveUpAfter: 6 };

  it('restarts a worker that ran a while at once', () => {
    const decide = workerRestarts(policy);
    expect(decide(45_000)).toEqual({ restartInMs: 0 });
    expect(decide(30_000)).toEqual({ restartInMs: 0 });
  });

  it('waits longer after each worker that dies as it starts, up to the cap, then gives up', () => {
    const decide = workerRestarts(policy);
    expect([1, 2, 3, 4, 5].map(() => decide(200))).toEqual([
      { restartInMs: 1000 },
      { restartInMs: 2000 },
      { restartInMs: 4000 },
      { restartInMs: 8000 },
      { restartInMs: 8000 },
    ]);
    expect(decide(200)).toEqual({ giveUp: true, earlyDeaths: 6 });
  });

  it('forgets early deaths once a worker has lived long enough', () => {
    const decide = workerRestarts(policy);
    for (let i = 0; i < 5; i++) decide(100);
    expect(decide(60_000)).toEqual({ restartInMs: 0 });
    expect(decide(100)).toEqual({ restartInMs: 1000 });
  });

  it('gives up within a few minutes by default', () => {
    const decide = workerRestarts();
    let waited = 0;
    let decision = decide(0);
    while ('restartInMs' in decision) {
      waited += decision.restartInMs;
      decision = decide(0);
    }
    expect(decision.earlyDeaths).toBe(WORKER_RESTARTS.giveUpAfter);
    expect(waited).toBeLessThan(5 * 60_000);
  });
});

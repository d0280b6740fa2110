import { describe, expect, it } from 'vitest';
import { ConcurrencyGate, GateFullError } from './concurrency-gate';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('ConcurrencyGate', () => {
  it('runs at most `limit` tasks, queues `queue` more and refuses the rest', async () => {
    const gate = new ConcurrencyGate(2, 1);
    const blockers = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = blockers.map((blocker, i) =>
      gate.run(async () => {
        started.push(i);
        await blocker.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(gate.inFlight).toBe(2);
    expect(gate.queued).toBe(1);
    await expect(gate.run(async () => 99)).rejects.toBeInstanceOf(GateFullError);

    blockers[0]!.resolve();
    expect(await runs[0]).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    expect(gate.inFlight).toBe(2);
    expect(gate.queued).toBe(0);

    blockers[1]!.resolve();
    blockers[2]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(gate.inFlight).toBe(0);
    expect(await gate.run(async () => 5)).toBe(5);
  });

  it('frees the slot when a task fails', async () => {
    const gate = new ConcurrencyGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.inFlight).toBe(0);
    expect(await gate.run(async () => 1)).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { PendingWrites } from './pending-writes';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

describe('PendingWrites', () => {
  it('has nothing to wait for when no write is pending', () => {
    expect(new PendingWrites().settled()).toBeUndefined();
  });

  it('settles once every write pending at the time has, failed or not', async () => {
    const writes = new PendingWrites();
    const a = deferred();
    const b = deferred();
    writes.hold(a.promise);
    writes.hold(b.promise);
    let done = false;
    const waiting = writes.settled()!.then(() => (done = true));
    a.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    b.reject(new Error('lost'));
    await waiting;
    expect(done).toBe(true);
    expect(writes.settled()).toBeUndefined();
  });

  it('drains writes held while it waits', async () => {
    const writes = new PendingWrites();
    const first = deferred();
    const second = deferred();
    writes.hold(first.promise);
    let drained = false;
    const draining = writes.drain().then(() => (drained = true));
    writes.hold(second.promise);
    first.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    second.resolve();
    await draining;
    expect(drained).toBe(true);
  });
});

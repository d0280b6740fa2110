import { describe, expect, it, vi } from 'vitest';
import { MAX_PENDING, PendingWrites, STUCK_MS } from './pending-writes';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('PendingWrites', () => {
  it('has nothing to wait for when no write is pending', () => {
    expect(new PendingWrites().settled()).toBeUndefined();
  });

  it('settles once every write pending at the time has, failed or not, in any order', async () => {
    const writes = new PendingWrites();
    const [a, b, c] = [deferred(), deferred(), deferred()];
    writes.hold(a.promise);
    writes.hold(b.promise);
    let done = false;
    const waiting = writes.settled()!.then(() => (done = true));
    // a write held later is not waited for
    writes.hold(c.promise);
    b.resolve();
    await turn();
    expect(done).toBe(false);
    a.reject(new Error('lost'));
    await waiting;
    expect(done).toBe(true);
    expect(writes.size).toBe(1);
    c.resolve();
    await turn();
    expect(writes.settled()).toBeUndefined();
  });

  it('lets a read go on after its longest wait', async () => {
    vi.useFakeTimers();
    try {
      const writes = new PendingWrites();
      writes.hold(new Promise(() => {}));
      let done = false;
      const waiting = writes.settled(250)!.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(249);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends a write waiting for its group when a reader waits', async () => {
    const writes = new PendingWrites();
    const write = deferred();
    const flush = vi.fn(() => write.resolve());
    writes.hold(write.promise, flush);
    await writes.settled();
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('makes the writer wait for its own write past MAX_PENDING', async () => {
    const writes = new PendingWrites();
    const stuck = Array.from({ length: MAX_PENDING }, () => deferred());
    for (const each of stuck) expect(writes.hold(each.promise)).toBeUndefined();
    const own = deferred();
    const wait = writes.hold(own.promise);
    expect(wait).toBeDefined();
    let done = false;
    void wait!.then(() => (done = true));
    own.resolve();
    await turn();
    expect(done).toBe(true);
  });

  it('counts only the writes in flight for backpressure, however many settled behind a slow one', async () => {
    const writes = new PendingWrites();
    writes.hold(new Promise(() => {}));
    for (let i = 0; i < MAX_PENDING + 10; i++) {
      expect(writes.hold(Promise.resolve())).toBeUndefined();
      await turn();
    }
    expect(writes.size).toBe(1);
    expect(writes.hold(Promise.resolve())).toBeUndefined();
  });

  it('stops counting a write stuck past STUCK_MS, so reads and closing go on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const writes = new PendingWrites();
      writes.hold(new Promise(() => {}));
      expect(writes.settled()).toBeDefined();
      vi.advanceTimersByTime(STUCK_MS);
      expect(writes.settled()).toBeUndefined();
      expect(writes.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up draining after its limit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const writes = new PendingWrites();
      writes.hold(new Promise(() => {}));
      let drained = false;
      const draining = writes.drain(1_000).then(() => (drained = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(drained).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await draining;
      expect(drained).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drains writes held while it waits', async () => {
    const writes = new PendingWrites();
    const [first, second] = [deferred(), deferred()];
    writes.hold(first.promise);
    let drained = false;
    const draining = writes.drain().then(() => (drained = true));
    writes.hold(second.promise);
    first.resolve();
    await turn();
    expect(drained).toBe(false);
    second.resolve();
    await draining;
    expect(drained).toBe(true);
  });
});

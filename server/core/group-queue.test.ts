import { describe, expect, it } from 'vitest';
import { GroupQueue, type Queued } from './group-queue';

describe('GroupQueue', () => {
  it('runs what is submitted in one turn as one group, and what arrives meanwhile as the next', async () => {
    const groups: number[][] = [];
    let release: () => void = () => {};
    const queue = new GroupQueue<number, number>({ maxInFlight: 1, maxItems: 100 }, async (group: Queued<number, number>[]) => {
      groups.push(group.map((queued) => queued.item));
      if (groups.length === 1) await new Promise<void>((resolve) => (release = resolve));
      for (const queued of group) queued.resolve(queued.item * 10);
    });
    const first = [queue.submit(1), queue.submit(2)];
    await Promise.resolve();
    await Promise.resolve();
    // the first group is in flight: these wait for it, then go together
    const second = [queue.submit(3), queue.submit(4), queue.submit(5)];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(groups).toEqual([[1, 2]]);
    release();
    expect(await Promise.all([...first, ...second])).toEqual([10, 20, 30, 40, 50]);
    expect(groups).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('cuts groups at maxItems and runs at most maxInFlight at once; a rejection settles only its own items', async () => {
    let running = 0;
    let most = 0;
    const sizes: number[] = [];
    const queue = new GroupQueue<number, number>({ maxInFlight: 2, maxItems: 3 }, async (group) => {
      running++;
      most = Math.max(most, running);
      sizes.push(group.length);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
      for (const queued of group) {
        if (queued.item === 4) queued.reject(new Error('refused'));
        else queued.resolve(queued.item);
      }
    });
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => queue.submit(i)));
    expect(sizes).toEqual([3, 3, 3, 1]);
    expect(most).toBe(2);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(1);
    expect((results[4] as PromiseRejectedResult).reason.message).toBe('refused');
  });
});

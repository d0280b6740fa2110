import { describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('loads once per key until the entry expires', async () => {
    vi.useFakeTimers();
    try {
      const cache = new TtlCache<number>(1000);
      const load = vi.fn(async () => 7);
      await Promise.all([cache.get('a', load), cache.get('a', load)]);
      expect(load).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1001);
      await cache.get('a', load);
      expect(load).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not keep failures, drops the oldest past its size, and deletes on request', async () => {
    const cache = new TtlCache<number>(60_000, 2);
    await expect(cache.get('x', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('x', async () => 1)).toBe(1);
    await cache.get('y', async () => 2);
    await cache.get('z', async () => 3);
    expect(await cache.get('x', async () => 10)).toBe(10);
    cache.deleteWhere((key, value) => key === 'x' && value === 10);
    expect(await cache.get('x', async () => 11)).toBe(11);
  });

  it('drops expired entries as new ones load, so ids that keep coming do not pile up', async () => {
    vi.useFakeTimers();
    try {
      const cache = new TtlCache<number>(1000);
      for (let i = 0; i < 100; i++) await cache.get(`job-${i}`, async () => i);
      expect(cache.size).toBe(100);
      await cache.get('job-0', async () => 0); // a hit moves nothing
      vi.advanceTimersByTime(600);
      await cache.get('job-100', async () => 100);
      vi.advanceTimersByTime(500); // job-0..99 expired, job-100 not
      await cache.get('job-101', async () => 101);
      expect(cache.size).toBe(2);
      expect(cache.peek('job-100')).toBe(100);
    } finally {
      vi.useRealTimers();
    }
  });

  it('peeks at a loaded, fresh value without loading', async () => {
    vi.useFakeTimers();
    try {
      const cache = new TtlCache<number>(1000);
      expect(cache.peek('a')).toBeUndefined();
      let resolve!: (value: number) => void;
      const loading = cache.get('a', () => new Promise<number>((r) => (resolve = r)));
      expect(cache.peek('a')).toBeUndefined();
      resolve(5);
      await loading;
      expect(cache.peek('a')).toBe(5);
      vi.advanceTimersByTime(1001);
      expect(cache.peek('a')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { rpcFetch } from './client';

// JSON-RPC goes around the tracing wrapper Next.js puts on the global fetch (client.ts).

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('rpcFetch', () => {
  it('calls the fetch Next.js wrapped, not the wrapper', async () => {
    const original = vi.fn(async () => new Response('{"ok":1}'));
    const wrapper = Object.assign(
      vi.fn(async () => new Response('wrapped')),
      { _nextOriginalFetch: original },
    );
    globalThis.fetch = wrapper as unknown as typeof fetch;
    expect(await (await rpcFetch('http://127.0.0.1:1/rpc', { method: 'POST' })).text()).toBe('{"ok":1}');
    expect(original).toHaveBeenCalledOnce();
    expect(wrapper).not.toHaveBeenCalled();
  });

  it('uses the global fetch when nothing wrapped it', async () => {
    const plain = vi.fn(async () => new Response('plain'));
    globalThis.fetch = plain as unknown as typeof fetch;
    expect(await (await rpcFetch('http://127.0.0.1:1/rpc')).text()).toBe('plain');
    expect(plain).toHaveBeenCalledOnce();
  });
});

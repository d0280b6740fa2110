import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { gracefulShutdown } from './graceful-shutdown';

describe('gracefulShutdown', () => {
  it('finishes in-flight requests, refuses new ones, then closes resources', async () => {
    const events: string[] = [];
    const server = createServer((_request, response) => {
      setTimeout(() => {
        events.push('responded');
        response.end('done');
      }, 300);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const inFlight = fetch(url).then((r) => r.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = gracefulShutdown(server, async () => {
      events.push('closed');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(fetch(url)).rejects.toThrow();
    expect(await inFlight).toBe('done');
    // The client's keep-alive connection is closed once idle, not after the keep-alive timeout.
    const closedWithin = await Promise.race([
      stopped.then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('late'), 2000)),
    ]);
    expect(closedWithin).toBe('stopped');
    expect(events).toEqual(['responded', 'closed']);
  });
});

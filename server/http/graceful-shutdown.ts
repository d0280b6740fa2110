import type { Server } from 'node:http';

/**
 * Stops accepting connections, lets in-flight requests finish (at most `timeoutMs`), then runs
 * `onClosed` (close the database). Idle keep-alive connections are closed at once.
 */
export function gracefulShutdown(server: Server, onClosed: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      onClosed().finally(resolve);
    });
    server.closeIdleConnections();
  });
}

import type { Server } from 'node:http';

/**
 * Stops accepting connections, lets in-flight requests finish (at most `timeoutMs`), then runs
 * `onClosed` (close the database). Keep-alive connections are closed as soon as they are idle,
 * including those whose last request finishes during the shutdown.
 */
export function gracefulShutdown(server: Server, onClosed: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    force.unref();
    sweep.unref();
    server.close(() => {
      clearTimeout(force);
      clearInterval(sweep);
      onClosed().finally(resolve);
    });
    server.closeIdleConnections();
  });
}

// Is this error the database being unreachable (a killed backend, a restarting or full server, a
// connection that timed out) rather than a bug? Such a request answers 503 with Retry-After
// (server/api/app.ts); its transaction rolled back with the connection, so nothing is half-applied.

/** SQLSTATEs of a lost or refused connection: class 08, admin/crash shutdown, starting up, too many connections. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '08007']);
/** Driver adapter error kinds (Prisma's DriverAdapterError cause) for the same. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'DatabaseDoesNotExist',
]);
/**
 * Prisma error codes: can't reach the server, server closed the connection, pool timeout, and an
 * interactive transaction that could not start within its wait or ran past its timeout (P2028; it
 * rolled back: seen as a 500 when a burst of stream opens held every pooled connection, issue 23).
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const MESSAGES =
  /Connection terminated|terminating connection|Client has encountered a connection error|connection timeout|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)|Connection is closed|server closed the connection/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const record = current as Record<string, unknown>;
    const code = typeof record.code === 'string' ? record.code : undefined;
    if (code && (SQLSTATES.has(code) || PRISMA_CODES.has(code) || NODE_CODES.has(code))) return true;
    if (typeof record.originalCode === 'string' && SQLSTATES.has(record.originalCode)) return true;
    if (typeof record.kind === 'string' && ADAPTER_KINDS.has(record.kind)) return true;
    if (typeof record.message === 'string' && MESSAGES.test(record.message)) return true;
    queue.push(record.cause, (record.meta as Record<string, unknown> | undefined)?.driverAdapterError);
  }
  return false;
}

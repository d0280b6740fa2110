// A tiny load balancer for the rolling-deploy test, behaving like a real one with health checks:
// round robin over the instances whose GET /api/v1/health/ready answered 200 at the last check
// (every CHECK_EVERY_MS), one fresh upstream connection per request, and a retry on another instance
// only when the connection could not be made (nothing was sent: as nginx's proxy_next_upstream
// error or Envoy's connect-failure retry). A response is streamed through (event streams too).
import http from 'node:http';

const CHECK_EVERY_MS = 100;

export interface Proxy {
  url: string;
  add(base: string): void;
  remove(base: string): void;
  /** Resolves once the proxy's own health check has seen `base` ready. */
  waitReady(base: string, timeoutMs?: number): Promise<void>;
  /** Requests retried on another instance after a refused connection. */
  retried: number;
  close(): Promise<void>;
}

export async function startProxy(): Promise<Proxy> {
  const upstreams = new Map<string, { ready: boolean; checking: boolean }>();
  let turn = 0;
  const state = { retried: 0 };

  const check = () => {
    for (const [base, upstream] of upstreams) {
      if (upstream.checking) continue;
      upstream.checking = true;
      fetch(`${base}/api/v1/health/ready`, { signal: AbortSignal.timeout(1000) })
        .then(
          async (response) => {
            await response.body?.cancel();
            return response.status === 200;
          },
          () => false,
        )
        .then((ready) => {
          upstream.ready = ready;
          upstream.checking = false;
        });
    }
  };
  const timer = setInterval(check, CHECK_EVERY_MS);

  const pick = (): string | null => {
    const ready = [...upstreams].filter(([, upstream]) => upstream.ready).map(([base]) => base);
    if (ready.length === 0) return null;
    return ready[turn++ % ready.length]!;
  };

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const deadline = Date.now() + 10_000;
    const attempt = () => {
      const base = pick();
      if (!base) {
        if (Date.now() > deadline) return void response.writeHead(503).end('no instance is ready');
        return void setTimeout(attempt, 20);
      }
      const target = new URL(request.url ?? '/', base);
      const upstream = http.request(
        target,
        { method: request.method, headers: { ...request.headers, host: target.host, connection: 'close' }, agent: false },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          answer.on('error', () => response.destroy());
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED' && !response.headersSent && Date.now() < deadline) {
          // Nothing reached the instance: take it out until its health check passes, try another.
          const entry = upstreams.get(base);
          if (entry) entry.ready = false;
          state.retried++;
          return attempt();
        }
        if (!response.headersSent) response.writeHead(502).end(`upstream ${base}: ${error.code ?? error.message}`);
        else response.destroy();
      });
      response.on('close', () => upstream.destroy());
      upstream.end(body);
    };
    attempt();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  return {
    url,
    get retried() {
      return state.retried;
    },
    add(base) {
      upstreams.set(base, { ready: false, checking: false });
    },
    remove(base) {
      upstreams.delete(base);
    },
    async waitReady(base, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (!upstreams.get(base)?.ready) {
        if (Date.now() > until) throw new Error(`${base} not ready through the proxy within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

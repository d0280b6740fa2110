import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface TargetCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The body as received (for Content-Digest checks). */
  raw: string;
}

/**
 * A local agent to invoke: /echo answers 200 with what it got, /fail 500, /fail-nested-N and /ok-nested-N
 * (500 or 200) with JSON nested N deep, /slow after 6 s, /delay-N after N ms, /redirect 302,
 * /big?bytes=N a JSON object of N bytes ({blob: "xxx…"}).
 */
export async function startTarget(): Promise<{ url: string; calls: TargetCall[]; close: () => Promise<void> }> {
  const calls: TargetCall[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* keep text */
      }
      calls.push({ path: request.url ?? '', headers: request.headers, body, raw });
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.url === '/fail') return json(500, { error: 'boom' });
      const nested = /^\/(fail|ok)-nested-(\d+)$/.exec(request.url ?? '');
      if (nested) {
        response.writeHead(nested[1] === 'fail' ? 500 : 200, { 'content-type': 'application/json' });
        return response.end('['.repeat(Number(nested[2])) + ']'.repeat(Number(nested[2])));
      }
      if (request.url === '/redirect') {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
        return response.end();
      }
      if (request.url === '/slow') return void setTimeout(() => json(200, { late: true }), 6000);
      const delayed = /^\/delay-(\d+)$/.exec(request.url ?? '');
      if (delayed) return void setTimeout(() => json(200, { delayed: true }), Number(delayed[1]));
      if (request.url?.startsWith('/big?bytes=')) return json(200, { blob: 'x'.repeat(Number(request.url.slice(11)) - 11) });
      if (request.url === '/text') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.end('plain answer');
      }
      return json(200, { echo: body, caller: request.headers['x-service-caller-wallet'] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    calls,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { log } from '../core/log';
import { currentRuntime } from '../core/runtime';
import { clientAddress } from './client-ip';
import { answerHeaders, jsonText, requestIdFrom } from './common-headers';
import { errorAnswer } from './error-answer';
import { readNodeJsonBody } from './read-body';
import { logRequest, requestLogOn } from './request-log';
import type { RouteMatch, RouteTable } from './route-table';
import {
  firstValues,
  serveEndpoint,
  type EmptyAnswer,
  type HeaderReader,
  type JsonAnswer,
  type RestRequest,
} from './serve-endpoint';

// server.ts's fast door (docs/architecture.md, "A request's path"). A request for a declared JSON
// endpoint is answered straight from node's request to node's response: no web Request or Response,
// no Hono context, router or middleware chain, one promise chain (serveEndpoint, the same function
// Hono's route runs, so every declared policy applies as it does there). Everything else (event
// streams, preflights, unknown paths and methods, the OpenAPI document, URLs or hosts that need
// normalizing) goes to `fallback`, the Hono app.

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
// URLs that reach Hono exactly as they were sent (@hono/node-server's own test for a URL it need not
// normalize), with no % escape in the path, so the path and its parameters are what Hono would see.
const PLAIN_PATH = /^\/[!$&-;=@-Z[\]_a-z~]*$/;
const PLAIN_QUERY = /^[!$%&-;=?-Z[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
// A Host header @hono/node-server takes as it is; another name (capitals, a port it does not list) is
// checked as it checks it, once per distinct header.
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const NAMED_HOST = /^[A-Za-z0-9._-]+(?::\d{1,5})?$/;
const checkedHosts = new Map<string, boolean>();

/** What is left of a request body once answered is read and dropped for at most this long (then the connection closes). */
const DRAIN_MS = 500;
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

export function nodeDoor(table: RouteTable, fallback: Listener): Listener {
  return (incoming, outgoing) => {
    const request = NodeRequest.declared(table, incoming, outgoing);
    if (!request) return fallback(incoming, outgoing);
    void serve(request);
  };
}

/** The request headers as a web Headers object reads them (names in any case, repeats joined), from node's raw list. */
class NodeHeaders implements HeaderReader {
  constructor(private readonly raw: string[]) {}

  get(name: string): string | null {
    const lower = name.toLowerCase();
    const raw = this.raw;
    let value: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      if (!sameName(raw[i]!, lower)) continue;
      const each = trimHttpWhitespace(raw[i + 1]!);
      value = value === null ? each : `${value}${lower === 'cookie' ? '; ' : ', '}${each}`;
    }
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

/** A header name against a lower-case one, in any letter case (no new string, as toLowerCase would make). */
function sameName(name: string, lower: string): boolean {
  if (name.length !== lower.length) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const want = lower.charCodeAt(i);
    if (code !== want && !(code >= 65 && code <= 90 && code + 32 === want)) return false;
  }
  return true;
}

const isHttpWhitespace = (code: number) => code === 9 || code === 10 || code === 13 || code === 32;

/** A header value as Headers keeps it: without leading and trailing tabs, line breaks and spaces (only). */
function trimHttpWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** A request for a declared endpoint, as serveEndpoint reads it. */
class NodeRequest implements RestRequest {
  readonly headers: NodeHeaders;
  readonly requestId: string;
  readonly ip: string;
  #request: Request | undefined;

  /** The request when the node door answers it, else null (Hono does). */
  static declared(table: RouteTable, incoming: IncomingMessage, outgoing: ServerResponse): NodeRequest | null {
    const method = incoming.method ?? '';
    if (!METHODS.has(method)) return null;
    const url = incoming.url ?? '';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    if (!PLAIN_PATH.test(path) || DOT_SEGMENT.test(path)) return null;
    const search = mark === -1 ? '' : url.slice(mark + 1);
    if (search && !PLAIN_QUERY.test(search)) return null;
    const match = table.find(method, path);
    if (!match || 'kind' in match.def.response) return null;
    const headers = new NodeHeaders(incoming.rawHeaders);
    const host = headers.get('host');
    if (!host || !usableHost(host)) return null;
    return new NodeRequest(incoming, outgoing, match, path, search, host, headers);
  }

  private constructor(
    readonly incoming: IncomingMessage,
    readonly outgoing: ServerResponse,
    readonly match: RouteMatch,
    readonly path: string,
    private readonly search: string,
    private readonly host: string,
    headers: NodeHeaders,
  ) {
    this.headers = headers;
    this.requestId = requestIdFrom(headers.get('x-request-id'));
    const trustProxy = currentRuntime().config.TRUST_PROXY;
    this.ip = clientAddress(trustProxy, trustProxy ? headers.get('x-forwarded-for') : undefined, incoming.socket?.remoteAddress);
  }

  params(): Record<string, string> {
    return this.match.params;
  }

  query(): Record<string, string> {
    return firstValues(new URLSearchParams(this.search));
  }

  readBody(limit: number): Promise<unknown> {
    if (this.incoming.method === 'GET') return Promise.resolve(undefined);
    return readNodeJsonBody(this.incoming, limit);
  }

  /** The web Request, built when a handler first asks (its body, already read, is not in it). */
  get request(): Request {
    return (this.#request ??= this.webRequest());
  }

  private webRequest(): Request {
    const { incoming, outgoing } = this;
    const headers = new Headers();
    const raw = incoming.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    // Aborted when the client goes away before the answer is written, as under @hono/node-server.
    const aborted = new AbortController();
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) aborted.abort(new Error('Client connection prematurely closed.'));
    });
    const scheme = (incoming.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http';
    const url = `${scheme}://${this.host}${incoming.url}`;
    return new Request(PLAIN_HOST.test(this.host) ? url : new URL(url).href, {
      method: incoming.method,
      headers,
      signal: aborted.signal,
    });
  }
}

/** A host name (and port) the URL parser takes as it is written, but for letter case and a default port. */
function usableHost(host: string): boolean {
  if (PLAIN_HOST.test(host)) return true;
  let usable = checkedHosts.get(host);
  if (usable === undefined) {
    usable = false;
    if (NAMED_HOST.test(host)) {
      try {
        usable = new URL(`http://${host}/`).hostname === host.replace(/:\d+$/, '').toLowerCase();
      } catch {
        // not a host name: Hono answers
      }
    }
    if (checkedHosts.size >= 64) checkedHosts.clear();
    checkedHosts.set(host, usable);
  }
  return usable;
}

async function serve(request: NodeRequest): Promise<void> {
  const { incoming, outgoing, requestId } = request;
  const logging = requestLogOn();
  const started = logging ? performance.now() : 0;
  let limitHeaders: Record<string, string> | undefined;
  let status: number;
  try {
    try {
      const answer = await serveEndpoint(request.match.def, request, (headers) => (limitHeaders = headers));
      status =
        answer.kind === 'response'
          ? await writeResponse(outgoing, requestId, answer.response)
          : writeAnswer(outgoing, requestId, answer);
    } catch (error) {
      const failed = errorAnswer(error, requestId);
      status = failed.status;
      if (outgoing.headersSent) outgoing.destroy();
      else {
        const headers = limitHeaders ? { ...limitHeaders, ...failed.headers } : failed.headers;
        writeJson(outgoing, failed.status, failed.body, answerHeaders(requestId, 'application/json', headers));
      }
    }
    // A body left unread (an endpoint without one, or past its limit) must not hold the connection.
    if (incoming.method !== 'GET' && !incoming.readableEnded) drain(incoming);
    if (logging) logRequest(requestId, incoming.method!, request.path, status, started);
  } catch (error) {
    // Only writing the error answer itself can fail here; the client gets a closed connection.
    log.error({ request_id: requestId, err: error }, 'could not answer');
    outgoing.destroy();
  }
}

/** Writes a JSON or empty answer with the common headers in one header object; returns its status. */
function writeAnswer(outgoing: ServerResponse, requestId: string, answer: JsonAnswer | EmptyAnswer): number {
  if (answer.kind === 'json') {
    writeJson(outgoing, answer.status, answer.body, answerHeaders(requestId, 'application/json', answer.headers));
  } else {
    outgoing.writeHead(answer.status, answerHeaders(requestId, null, answer.headers));
    outgoing.end();
  }
  return answer.status;
}

/** A Response from the handler (an MCP answer), complete, since event streams never take this door; returns its status. */
async function writeResponse(outgoing: ServerResponse, requestId: string, response: Response): Promise<number> {
  const own: Record<string, string> = {};
  response.headers.forEach((value, name) => (own[name] = value));
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  if (body) own['content-type'] ??= 'text/plain; charset=UTF-8';
  const headers = answerHeaders(requestId, null, own);
  if (body) headers['Content-Length'] = String(body.byteLength);
  outgoing.writeHead(response.status, headers);
  outgoing.end(body ?? undefined);
  return response.status;
}

function writeJson(outgoing: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = jsonText(body);
  headers['Content-Length'] = String(Buffer.byteLength(text));
  outgoing.writeHead(status, headers);
  outgoing.end(text);
}

/** Reads and drops the rest of a request body for DRAIN_MS and DRAIN_MAX_BYTES at most, then closes the connection. */
function drain(incoming: IncomingMessage): void {
  if (incoming.destroyed) return;
  let bytes = 0;
  const cleanup = () => {
    clearTimeout(timer);
    incoming.off('data', onData).off('end', cleanup).off('error', cleanup);
  };
  const close = () => {
    cleanup();
    incoming.socket?.destroySoon();
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.byteLength;
    if (bytes > DRAIN_MAX_BYTES) close();
  };
  const timer = setTimeout(close, DRAIN_MS);
  timer.unref();
  incoming.on('data', onData).on('end', cleanup).on('error', cleanup);
  incoming.resume();
}

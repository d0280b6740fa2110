// Plain HTTP calls to a running server, for the tests that drive one from outside (multi-instance,
// database faults, chaos, the load servers' own setup): one request with its body parsed, and the part
// of TestApp that signIn() uses. Callers that tally answers (refusals, statuses) do it on what this returns.
import type { TestApp } from '../harness';

export interface Answer {
  status: number;
  headers: Headers;
  /** The body parsed when it is JSON, its text otherwise (null when empty), as TestApp answers. */
  body: any;
  text: string;
}

/** One request to `base`; a JSON body when `body` is given; gives up (throws) after 20 s. */
export async function call(base: string, method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** The part of TestApp that signIn() uses, against a server over HTTP. */
export const door = (base: string) =>
  ({ post: (path: string, body: unknown) => call(base, 'POST', path, body) }) as unknown as TestApp;

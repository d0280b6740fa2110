// The Vouchsafe TypeScript SDK: a typed client for every REST endpoint (openapi-fetch over the types
// generated from the OpenAPI document into ./schema.d.ts by `npm run sdk`), plus helpers for the
// common flows. Standalone: it imports nothing from the server. See sdk/README.md.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
/** Every named resource schema of the API (Agent, Challenge, TokenResult, Error, ...). */
export type Schemas = components['schemas'];
export type ApiErrorBody = Schemas['Error'];

export interface VouchsafeOptions {
  /** The deployment's origin, for example https://vouchsafe.example (paths start with /api). */
  baseUrl: string;
  /** A bearer token from sign-in (`vs_...`); set later with setToken(). */
  token?: string;
  /** A permanent API key (`ck_...`), sent as X-Api-Key when no token is set. */
  apiKey?: string;
  /** A fetch implementation (default: globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/** What signs the sign-in challenge: a viem account, or anything with the same two members. */
export interface Signer {
  address: string;
  signMessage(args: { message: string }): Promise<string>;
}

/** A non-2xx answer: the API's error body with its status. */
export class VouchsafeError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`${status} ${body.code}: ${body.error}`);
  }
  get code(): string {
    return this.body.code;
  }
  get details(): Record<string, unknown> {
    return this.body.details;
  }
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/** The body of a 2xx answer, or a VouchsafeError for any other. */
export function unwrap<T>(result: Result<T>): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  const body = (result.error as ApiErrorBody | undefined) ?? { error: result.response.statusText, code: 'unknown', details: {} };
  throw new VouchsafeError(result.response.status, body);
}

export interface SignInOptions {
  /** Any unique string identifying the agent (default: the wallet address). */
  agentPubkey?: string;
  agentName?: string;
  requestedScopes?: string[];
  maxSpendClawPerDay?: number;
}

export interface VouchsafeClient {
  /** The typed client: client.GET('/api/v1/agents/{id}', { params: { path: { id } } }) and so on. */
  api: Client<paths>;
  setToken(token: string | null): void;
  /** Sign-In with Ethereum: challenge, sign, verify; keeps the token for later calls. */
  signIn(signer: Signer, options?: SignInOptions): Promise<Schemas['TokenResult']>;
  /** Creates the caller's agent if absent and pays the one-time welcome grant. */
  bootstrap(body?: {
    agent_name?: string;
    scopes?: string[];
    max_spend_claw_per_day?: number;
  }): Promise<Schemas['BootstrapResult']>;
  /** Invokes an agent (UUID or handle); the payload is forwarded to its invoke_url. */
  invoke(agent: string, payload: unknown): Promise<Schemas['InvocationB']>;
  credits(): Promise<Schemas['Credits']>;
}

export function createVouchsafeClient(options: VouchsafeOptions): VouchsafeClient {
  let token = options.token ?? null;
  const api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/$/, ''), fetch: options.fetch });
  const auth: Middleware = {
    onRequest({ request }) {
      if (request.headers.has('authorization') || request.headers.has('x-api-key')) return request;
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      else if (options.apiKey) request.headers.set('x-api-key', options.apiKey);
      return request;
    },
  };
  api.use(auth);

  return {
    api,
    setToken(next) {
      token = next;
    },
    async signIn(signer, signInOptions = {}) {
      const challenge = unwrap(
        await api.POST('/api/v1/auth/challenge', {
          body: {
            owner_wallet: signer.address,
            agent_pubkey: signInOptions.agentPubkey ?? signer.address,
            agent_name: signInOptions.agentName,
            requested_scopes: signInOptions.requestedScopes,
            max_spend_claw_per_day: signInOptions.maxSpendClawPerDay,
          },
        }),
      );
      const signature = await signer.signMessage({ message: challenge.challenge });
      const result = unwrap(await api.POST('/api/v1/auth/verify', { body: { challenge_id: challenge.challenge_id, signature } }));
      token = result.token;
      return result;
    },
    async bootstrap(body = {}) {
      return unwrap(await api.POST('/api/v1/agents/bootstrap', { body }));
    },
    async invoke(agent, payload) {
      return unwrap(await api.POST('/api/v1/agents/{id}/invoke', { params: { path: { id: agent } }, body: payload }));
    },
    async credits() {
      return unwrap(await api.GET('/api/v1/credits'));
    },
  };
}

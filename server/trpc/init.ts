import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { Address } from 'viem';
import { ApiError } from '../core/errors';
import type { Caller } from '../core/caller';
import { WALLET_SCOPES } from '../core/scopes';
import { primaryAgentOf } from '../agents/find-agent';
import type { AnyEndpoint } from '../http/endpoint';

/** What every procedure knows about the request: the session's wallet (null when signed out) and whether it is an admin. */
export interface TrpcContext {
  wallet: Address | null;
  isAdmin: boolean;
  clientIp: string;
  /** The HTTP request (a batch's request for each call in it); absent for server-side callers. */
  request?: Request;
}

/** A procedure derived from a REST endpoint (procedureFrom) carries its declaration. */
export interface ProcedureMeta {
  endpoint?: AnyEndpoint;
}

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      return {
        ...shape,
        data: {
          ...shape.data,
          stack: undefined,
          apiCode: cause instanceof ApiError ? cause.code : null,
          details: cause instanceof ApiError ? cause.details : null,
        },
      };
    },
  });

const CODES: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** Services throw ApiError; the UI sees the same status and message as a REST client would. */
const apiErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof ApiError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: CODES[cause.status] ?? 'INTERNAL_SERVER_ERROR', message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(apiErrors);

/** Signed-in users only. */
export const walletProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.wallet) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in with your wallet first' });
  return next({ ctx: { ...ctx, wallet: ctx.wallet } });
});

/** Wallets listed in ADMIN_WALLETS only; everyone else gets 403. */
export const adminProcedure = walletProcedure.use(({ ctx, next }) => {
  if (!ctx.isAdmin) throw new TRPCError({ code: 'FORBIDDEN', message: 'The admin console is for admin wallets only' });
  return next();
});

/**
 * The session as a service Caller: the wallet owner signed in with the wallet itself, so it holds every
 * scope (as a bearer token issued without requested_scopes does), acting for its oldest agent.
 */
export async function sessionCaller(wallet: Address): Promise<Caller> {
  const agent = await primaryAgentOf(wallet);
  return {
    via: 'signature',
    wallet,
    agentId: agent?.id ?? null,
    agentPubkey: agent?.agentPubkey ?? null,
    scopes: WALLET_SCOPES,
    credentialId: null,
    maxSpendPerDay: agent?.maxSpendPerDay ?? null,
  };
}

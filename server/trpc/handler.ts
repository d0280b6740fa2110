import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { runtime } from '../core/runtime';
import { log } from '../core/log';
import { isAdminWallet, sessionWallet } from '../web-auth/session';
import { appRouter } from './router';

/** /api/trpc through Next.js (the session cookie is read with next-auth). */
export async function handleTrpcRequest(request: Request, clientIp: string): Promise<Response> {
  await runtime();
  const wallet = await sessionWallet();
  const isAdmin = await isAdminWallet(wallet);
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: () => ({ wallet, isAdmin, clientIp }),
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error.cause ?? error, path }, 'trpc procedure failed');
    },
  });
}

import { runtime } from '../core/runtime';
import { isAdminWallet, sessionWallet } from '../web-auth/session';
import { serveTrpc } from './serve';

/** /api/trpc through Next.js (the session cookie is read with next-auth). */
export async function handleTrpcRequest(request: Request, clientIp: string): Promise<Response> {
  await runtime();
  const wallet = await sessionWallet();
  const isAdmin = await isAdminWallet(wallet);
  return serveTrpc(request, { wallet, isAdmin, clientIp });
}

// tRPC for the web UI and admin console (server/trpc/). Only an adapter: procedures live in server/trpc.
import { handleTrpcRequest } from '@/server/trpc/handler';
import { lastForwardedFor } from '@/server/http/client-ip';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const handle = (request: Request) =>
  handleTrpcRequest(request, lastForwardedFor(request.headers.get('x-forwarded-for')) ?? 'unknown');

export { handle as GET, handle as POST };

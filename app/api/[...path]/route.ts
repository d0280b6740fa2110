// Every REST /api path through Next.js itself (next dev, next start, serverless hosts): the same
// fetch handler server.ts serves. Next.js fills X-Forwarded-For with the socket's address when the
// client sent none, and hosting platforms' proxies set it: its last entry is the client as this door
// can know it (docs/architecture.md, "One process, two doors").
import { handleApiRequest } from '@/server/api/fetch-handler';
import { lastForwardedFor } from '@/server/http/client-ip';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const handle = (request: Request) =>
  handleApiRequest(request, { clientIp: lastForwardedFor(request.headers.get('x-forwarded-for')) });

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS, handle as HEAD };

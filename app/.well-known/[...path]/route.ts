// Every /.well-known/ path (machines: the A2A agent card) through Next.js itself (next dev, serverless
// hosts): the REST door's fetch handler, as server.ts serves it. Never bot-checked (proxy.ts).
import { handleApiRequest } from '@/server/api/fetch-handler';
import { lastForwardedFor } from '@/server/http/client-ip';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const handle = (request: Request) =>
  handleApiRequest(request, { clientIp: lastForwardedFor(request.headers.get('x-forwarded-for')) });

export { handle as GET, handle as HEAD, handle as OPTIONS };

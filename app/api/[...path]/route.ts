// Every /api path through Next.js itself (next dev, serverless hosts): the same REST API fetch
// handler that server.ts serves directly.
import { handleApiRequest } from '@/server/api/fetch-handler';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const handle = (request: Request) => handleApiRequest(request);

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS, handle as HEAD };

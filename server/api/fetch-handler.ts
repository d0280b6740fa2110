import { createApi } from './app';
import { runtime } from '../runtime';

// The REST API as a plain fetch handler, starting the runtime on first use. server.ts and the
// Next.js catch-all route both serve it.
let api: ReturnType<typeof createApi> | null = null;

export async function handleApiRequest(request: Request, env?: object): Promise<Response> {
  await runtime();
  api ??= createApi();
  return api.fetch(request, env);
}

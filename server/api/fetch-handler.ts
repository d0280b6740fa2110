import { runtime } from '../core/runtime';
import { sharedState } from '../core/shared-state';
import type { DoorEnv } from '../http/client-ip';
import { createApi } from './app';

// The REST API as a plain fetch handler, starting the runtime on first use: the Next.js door
// (app/api/[...path]/route.ts) serves it; server.ts serves the same app with the socket attached.
const api = sharedState('api.app', () => createApi());

export async function handleApiRequest(request: Request, env: DoorEnv = {}): Promise<Response> {
  await runtime();
  return api().fetch(request, env);
}

// next-auth's endpoints (session, csrf, providers, sign-in with the SIWE credentials provider,
// sign-out). Any other /api/auth path answers 404 JSON as the REST door does (never HTML).
import type { NextRequest } from 'next/server';
import { handlers } from '@/server/web-auth/session';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const ACTIONS = new Set(['session', 'csrf', 'providers', 'signin', 'signout', 'callback', 'error']);

function known(request: NextRequest): boolean {
  const action = new URL(request.url).pathname.split('/')[3] ?? '';
  return ACTIONS.has(action);
}

const notFound = () => Response.json({ error: 'Not found', code: 'not_found', details: {} }, { status: 404 });

export const GET = (request: NextRequest) => (known(request) ? handlers.GET(request) : notFound());
export const POST = (request: NextRequest) => (known(request) ? handlers.POST(request) : notFound());

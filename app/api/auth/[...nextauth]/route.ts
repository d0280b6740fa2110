// next-auth's endpoints (session, csrf, sign-in with the SIWE credentials provider, sign-out).
import { handlers } from '@/server/web-auth/session';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST } = handlers;

// GET /bot-check/challenge: a fresh ALTCHA proof-of-work challenge for the widget.
import { createBotChallenge } from '@/server/web-auth/bot-check';
import { runtime } from '@/server/core/runtime';

export const dynamic = 'force-dynamic';

export async function GET() {
  await runtime();
  return Response.json(await createBotChallenge(), { headers: { 'cache-control': 'no-store' } });
}

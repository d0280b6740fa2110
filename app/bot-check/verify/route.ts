// POST /bot-check/verify {payload}: checks the widget's solution and sets the signed pass cookie.
import { runtime } from '@/server/core/runtime';
import { verifyBotPayload } from '@/server/web-auth/bot-check';
import { BOT_COOKIE } from '@/server/web-auth/bot-cookie';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  const { config } = await runtime();
  const body = (await request.json().catch(() => null)) as { payload?: unknown } | null;
  const pass = await verifyBotPayload(body?.payload);
  if (!pass) {
    return Response.json({ error: 'The bot check was not solved', code: 'bot_check_failed', details: {} }, { status: 400 });
  }
  const secure = config.PUBLIC_BASE_URL.startsWith('https:') ? '; Secure' : '';
  return Response.json(
    { ok: true },
    {
      headers: {
        'set-cookie': `${BOT_COOKIE}=${pass.value}; Path=/; Max-Age=${pass.maxAge}; HttpOnly; SameSite=Lax${secure}`,
        'cache-control': 'no-store',
      },
    },
  );
}

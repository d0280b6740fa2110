// Next.js proxy (formerly middleware): the human pages' bot check (docs/ui.md, "Bot check"). A page
// request without a valid signed pass cookie is sent to /bot-check, which solves an ALTCHA
// proof-of-work puzzle and comes back. /api/... (both doors), /.well-known/..., /docs and static assets are
// never checked.
import { NextResponse, type NextRequest } from 'next/server';
import { loadConfig } from './server/core/config';
import { BOT_CHECK_PATH, BOT_COOKIE, isExemptFromBotCheck, isValidBotPass } from './server/web-auth/bot-cookie';

let settings: { on: boolean; secret: string } | null = null;

function botCheckSettings() {
  if (!settings) {
    const config = loadConfig(process.env);
    settings = { on: config.BOT_CHECK === 'on', secret: config.AUTH_SECRET };
  }
  return settings;
}

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (isExemptFromBotCheck(pathname)) return NextResponse.next();
  const { on, secret } = botCheckSettings();
  if (!on || isValidBotPass(secret, request.cookies.get(BOT_COOKIE)?.value)) return NextResponse.next();
  const target = request.nextUrl.clone();
  target.pathname = BOT_CHECK_PATH;
  target.search = `?next=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(target, 303);
}

export const config = { matcher: ['/((?!api/|\\.well-known/|_next/|bot-check).*)'] };

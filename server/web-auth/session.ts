// The web app's session: next-auth (JWT cookie) over a Sign-In with Ethereum challenge
// (server/auth/web-sign-in.ts). One of the few server files that touches Next/next-auth.
import NextAuth, { type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { getAddress, type Address } from 'viem';
import { z } from 'zod';
import { verifyWebSignIn } from '../auth/web-sign-in';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { runtime } from '../core/runtime';

export const SESSION_MAX_AGE_S = 24 * 60 * 60;

const credentials = z.object({
  challengeId: z.uuid(),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/)
    .max(10_000),
});

/** True when the wallet is listed in ADMIN_WALLETS (read on every request, so a change applies at restart). */
export async function isAdminWallet(wallet: Address | null): Promise<boolean> {
  if (!wallet) return false;
  const { config } = await runtime();
  return config.ADMIN_WALLETS.includes(getAddress(wallet));
}

async function authConfig(): Promise<NextAuthConfig> {
  const { config } = await runtime();
  return {
    secret: config.AUTH_SECRET,
    trustHost: true,
    basePath: '/api/auth',
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: '/me' },
    // A refused signature is an expected answer (the UI says so), not a server error.
    logger: {
      error(error) {
        // error.name is minified in the bundle; the type survives.
        if ((error as { type?: string }).type !== 'CredentialsSignin') log.error({ err: error }, 'next-auth error');
      },
      warn() {},
    },
    providers: [
      Credentials({
        id: 'siwe',
        name: 'Sign-In with Ethereum',
        credentials: { challengeId: {}, signature: {} },
        async authorize(input) {
          const parsed = credentials.safeParse(input);
          if (!parsed.success) return null;
          try {
            const wallet = await verifyWebSignIn(parsed.data.challengeId, parsed.data.signature);
            return { id: wallet, name: wallet };
          } catch (error) {
            if (error instanceof ApiError) return null;
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user?.id) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub ?? '', name: token.sub ?? '' } };
      },
    },
  };
}

export const { handlers, auth, signOut } = NextAuth(() => authConfig());

/** The signed-in wallet of the current request, or null. */
export async function sessionWallet(): Promise<Address | null> {
  const session = await auth();
  const id = session?.user?.id;
  return id && /^0x[0-9a-fA-F]{40}$/.test(id) ? getAddress(id) : null;
}

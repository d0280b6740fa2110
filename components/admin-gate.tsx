import type { ReactNode } from 'react';
import { isAdminWallet, sessionWallet } from '@/server/web-auth/session';
import { PageShell } from './ui/states';

/** Server-side gate: the console's markup is never sent to a browser that is not an admin's session. */
export async function AdminGate({ title, children }: { title: string; children: ReactNode }) {
  const wallet = await sessionWallet();
  if (!(await isAdminWallet(wallet))) {
    return (
      <PageShell title={title}>
        <div role="alert" className="rounded-lg border border-rose-800 bg-rose-950/50 p-6" data-testid="admin-refused">
          <p className="font-medium">Admins only</p>
          <p className="mt-1 text-slate-300">
            {wallet
              ? 'The admin console is only for wallets listed in ADMIN_WALLETS. Your wallet is not one of them.'
              : 'Sign in with an admin wallet to use the admin console.'}
          </p>
        </div>
      </PageShell>
    );
  }
  return <PageShell title={title}>{children}</PageShell>;
}

'use client';
import Link from 'next/link';
import { shortAddress } from './ui/states';
import { useSession } from './use-session';

export function WalletButton() {
  const session = useSession();
  if (session.loading) return <span className="text-sm text-slate-400">…</span>;
  if (session.wallet) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Link
          href="/me"
          className="rounded-md border border-slate-700 px-3 py-1.5 hover:bg-slate-800"
          data-testid="session-wallet"
        >
          {shortAddress(session.wallet)}
        </Link>
        {session.isAdmin ? (
          <Link href="/admin" className="rounded-md border border-amber-700 px-3 py-1.5 text-amber-300 hover:bg-slate-800">
            Admin
          </Link>
        ) : null}
        <button
          type="button"
          onClick={() => void session.signOut()}
          disabled={session.pending}
          className="rounded-md px-3 py-1.5 text-slate-300 hover:bg-slate-800 hover:text-white"
        >
          Sign out
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        onClick={() => void session.signIn()}
        disabled={session.pending}
        className="rounded-md bg-emerald-500 px-3 py-1.5 text-sm font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
      >
        {session.pending ? 'Check your wallet…' : 'Sign in with wallet'}
      </button>
      {session.error ? (
        <p role="alert" className="max-w-xs text-right text-xs text-rose-300">
          {session.error}
        </p>
      ) : null}
    </div>
  );
}

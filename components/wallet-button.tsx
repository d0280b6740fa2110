'use client';
import Link from 'next/link';
import { useState } from 'react';
import type { Connector } from 'wagmi';
import { shortAddress } from './ui/format';
import { useSession } from './use-session';

/** Wallets a first user can install (their own sites; nothing is loaded from them until clicked). */
const WALLETS_TO_INSTALL = [
  ['MetaMask', 'https://metamask.io/download/'],
  ['Rabby', 'https://rabby.io/'],
  ['Coinbase Wallet', 'https://www.coinbase.com/wallet/downloads'],
] as const;

export function WalletButton() {
  const session = useSession();
  const [choices, setChoices] = useState<Connector[] | null>(null);
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
  const start = async () => {
    const wallets = await session.walletChoices();
    // Several wallets in this browser: the user picks one; one (or none, or already connected): go on.
    if (wallets.length > 1) setChoices(wallets);
    else await session.signIn(wallets[0]);
  };
  const choose = (connector: Connector) => {
    setChoices(null);
    void session.signIn(connector);
  };
  return (
    <div className="relative flex flex-col items-end gap-1">
      <button
        type="button"
        onClick={() => void start()}
        disabled={session.pending}
        aria-expanded={choices ? true : undefined}
        className="rounded-md bg-emerald-500 px-3 py-1.5 text-sm font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
      >
        {session.pending ? 'Check your wallet…' : 'Sign in with wallet'}
      </button>
      {choices ? (
        <div
          role="group"
          aria-label="Choose a wallet"
          data-testid="wallet-picker"
          className="absolute right-0 top-full z-20 mt-1 flex w-64 flex-col gap-1 rounded-md border border-slate-700 bg-slate-900 p-2 shadow-lg"
        >
          <p className="px-1 text-xs text-slate-400">Choose the wallet to sign in with</p>
          {choices.map((connector) => (
            <button
              key={connector.uid}
              type="button"
              onClick={() => choose(connector)}
              className="flex items-center gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-slate-800"
            >
              {/* EIP-6963 icons are data: URIs (no request leaves the page). */}
              {connector.icon?.startsWith('data:') ? (
                <img src={connector.icon} alt="" width={20} height={20} className="h-5 w-5" />
              ) : (
                <span aria-hidden="true" className="h-5 w-5 rounded bg-slate-700" />
              )}
              {connector.name}
            </button>
          ))}
          <button
            type="button"
            onClick={() => setChoices(null)}
            className="rounded px-2 py-1 text-left text-xs text-slate-400 hover:bg-slate-800"
          >
            Cancel
          </button>
        </div>
      ) : null}
      {session.noWallet ? (
        <div role="alert" className="max-w-xs text-right text-xs text-slate-300" data-testid="no-wallet">
          <p className="font-medium text-amber-300">No browser wallet found.</p>
          <p>
            Signing in needs an Ethereum wallet extension, such as{' '}
            {WALLETS_TO_INSTALL.map(([name, href], index) => (
              <span key={name}>
                {index > 0 ? (index === WALLETS_TO_INSTALL.length - 1 ? ' or ' : ', ') : ''}
                <a href={href} target="_blank" rel="noopener noreferrer" className="underline hover:text-white">
                  {name}
                </a>
              </span>
            ))}
            . Install one, then reload this page. Browsing needs no wallet.
          </p>
        </div>
      ) : session.error ? (
        <p role="alert" className="max-w-xs text-right text-xs text-rose-300">
          {session.error}
        </p>
      ) : null}
    </div>
  );
}

import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Providers, type WalletSettings } from '@/components/providers';
import { SiteHeader } from '@/components/site-header';
import { runtime } from '@/server/core/runtime';
import './globals.css';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'Vouchsafe', template: '%s · Vouchsafe' },
  description: 'Identity, trust and safety for autonomous agents on Base',
  icons: { icon: '/favicon.svg' },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { config } = await runtime();
  const wallet: WalletSettings = {
    chainId: config.CHAIN_ID,
    mock:
      config.UI_MOCK_WALLET && config.UI_MOCK_WALLET_RPC_URL
        ? { address: config.UI_MOCK_WALLET, rpcUrl: config.UI_MOCK_WALLET_RPC_URL }
        : null,
  };
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-950 text-slate-100 antialiased">
        <Providers wallet={wallet}>
          <SiteHeader />
          {children}
        </Providers>
      </body>
    </html>
  );
}

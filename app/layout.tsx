import type { Metadata } from 'next';
import { cookies } from 'next/headers';
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
  // Tests only: with UI_MOCK_WALLET set, a browser that sends `ui_mock_wallet=off` gets the real
  // wallet discovery (the e2e specs that inject EIP-6963 wallets, or none).
  const mockOff = (await cookies()).get('ui_mock_wallet')?.value === 'off';
  const wallet: WalletSettings = {
    chainId: config.CHAIN_ID,
    mock:
      config.UI_MOCK_WALLET && config.UI_MOCK_WALLET_RPC_URL && !mockOff
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

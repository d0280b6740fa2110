'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { useState, type ReactNode } from 'react';
import { defineChain, http } from 'viem';
import { createConfig, WagmiProvider } from 'wagmi';
import { injected } from 'wagmi/connectors/injected';
import { mock } from 'wagmi/connectors/mock';
import type { AppRouter } from '@/server/trpc/router';
import { TRPCProvider } from './trpc';

export interface WalletSettings {
  chainId: number;
  /** Tests only (UI_MOCK_WALLET): wagmi's mock connector for this account, signing through rpcUrl. */
  mock: { address: `0x${string}`; rpcUrl: string } | null;
}

function makeWagmiConfig(settings: WalletSettings) {
  const rpcUrl = settings.mock?.rpcUrl ?? 'http://127.0.0.1:8545';
  const chain = defineChain({
    id: settings.chainId,
    name: settings.chainId === 8453 ? 'Base' : `Chain ${settings.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  // Offline-friendly connectors only (no WalletConnect): `window.ethereum`, plus one connector per
  // wallet that announces itself through EIP-6963 (wagmi's multiInjectedProviderDiscovery, added at
  // run time; use-session.ts offers them all), and the mock connector in tests.
  const connectors = settings.mock
    ? [mock({ accounts: [settings.mock.address], features: { reconnect: true } })]
    : [injected({ shimDisconnect: true })];
  return createConfig({
    chains: [chain],
    connectors,
    multiInjectedProviderDiscovery: true,
    transports: { [chain.id]: http(rpcUrl) },
    ssr: true,
  });
}

export function Providers({ children, wallet }: { children: ReactNode; wallet: WalletSettings }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, retry: 1, refetchOnWindowFocus: false } } }),
  );
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: '/api/trpc' })] }));
  const [wagmiConfig] = useState(() => makeWagmiConfig(wallet));
  return (
    <WagmiProvider config={wagmiConfig}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </WagmiProvider>
  );
}

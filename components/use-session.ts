'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { signIn, signOut } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useCallback, useState } from 'react';
import { useConnect, useConnection, useConnectors, useDisconnect, useSignMessage, type Connector } from 'wagmi';
import { useTRPC } from './trpc';

/** Thrown when the browser has no wallet at all: the header shows what to install instead. */
export class NoWalletError extends Error {
  constructor() {
    super('No browser wallet found');
  }
}

/**
 * The wallets this browser offers: every EIP-6963 wallet that announced itself (wagmi adds one
 * connector per announcement), else the legacy `window.ethereum` one if something injected it;
 * the mock connector alone in tests (UI_MOCK_WALLET).
 */
export async function availableWallets(connectors: readonly Connector[]): Promise<Connector[]> {
  const mock = connectors.filter((connector) => connector.type === 'mock');
  if (mock.length > 0) return mock;
  const announced = connectors.filter((connector) => connector.type === 'injected' && connector.id !== 'injected');
  if (announced.length > 0) return announced;
  const legacy = connectors.find((connector) => connector.id === 'injected');
  return legacy && (await legacy.getProvider().catch(() => undefined)) ? [legacy] : [];
}

/** The web session (from tRPC) and the wallet sign-in / sign-out flow. */
export function useSession() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const session = useQuery(trpc.auth.session.queryOptions());
  const connectors = useConnectors();
  const { connectAsync } = useConnect();
  const challengeMutation = useMutation(trpc.auth.challenge.mutationOptions());
  const { disconnectAsync } = useDisconnect();
  const connection = useConnection();
  const { signMessageAsync } = useSignMessage();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [noWallet, setNoWallet] = useState(false);

  // The client's queries and the server-rendered parts (the admin gate) both depend on the session.
  const refresh = useCallback(async () => {
    router.refresh();
    await queryClient.invalidateQueries();
  }, [queryClient, router]);

  /** The wallets to choose from; empty when the browser has none (or already connected: no choice needed). */
  const walletChoices = useCallback(
    async () => (connection.address ? [] : availableWallets(connectors)),
    [connection.address, connectors],
  );

  const signInWithWallet = useCallback(
    async (chosen?: Connector) => {
      setPending(true);
      setError(null);
      setNoWallet(false);
      try {
        let address = connection.address;
        if (!address) {
          const connector = chosen ?? (await availableWallets(connectors))[0];
          if (!connector) throw new NoWalletError();
          const result = await connectAsync({ connector });
          address = result.accounts[0];
        }
        if (!address) throw new Error('The wallet returned no account');
        const challenge = await challengeMutation.mutateAsync({ wallet: address });
        const signature = await signMessageAsync({ message: challenge.message, account: address });
        const result = await signIn('siwe', { challengeId: challenge.challenge_id, signature, redirect: false });
        if (!result || result.error)
          throw new Error('Sign-in was refused: the signature did not verify or the challenge expired');
        await refresh();
      } catch (cause) {
        setNoWallet(cause instanceof NoWalletError);
        setError(cause instanceof Error ? cause.message.split('\n')[0]! : String(cause));
      } finally {
        setPending(false);
      }
    },
    [connection.address, connectors, connectAsync, challengeMutation, signMessageAsync, refresh],
  );

  const signOutEverywhere = useCallback(async () => {
    setPending(true);
    try {
      await signOut({ redirect: false });
      await disconnectAsync().catch(() => undefined);
      await refresh();
    } finally {
      setPending(false);
    }
  }, [disconnectAsync, refresh]);

  return {
    wallet: session.data?.wallet ?? null,
    isAdmin: session.data?.isAdmin ?? false,
    loading: session.isLoading,
    pending,
    error,
    /** The last sign-in failed because the browser has no wallet at all. */
    noWallet,
    walletChoices,
    signIn: signInWithWallet,
    signOut: signOutEverywhere,
  };
}

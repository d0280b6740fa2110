'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { signIn, signOut } from 'next-auth/react';
import { useCallback, useState } from 'react';
import { useConnect, useConnection, useConnectors, useDisconnect, useSignMessage } from 'wagmi';
import { useTRPC } from './trpc';

/** The web session (from tRPC) and the wallet sign-in / sign-out flow. */
export function useSession() {
  const trpc = useTRPC();
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

  const refresh = useCallback(() => queryClient.invalidateQueries(), [queryClient]);

  const signInWithWallet = useCallback(async () => {
    setPending(true);
    setError(null);
    try {
      let address = connection.address;
      if (!address) {
        const connector = connectors[0];
        if (!connector) throw new Error('No wallet found: install a browser wallet extension');
        const result = await connectAsync({ connector });
        address = result.accounts[0];
      }
      if (!address) throw new Error('The wallet returned no account');
      const challenge = await challengeMutation.mutateAsync({ wallet: address });
      const signature = await signMessageAsync({ message: challenge.message, account: address });
      const result = await signIn('siwe', { challengeId: challenge.challenge_id, signature, redirect: false });
      if (!result || result.error) throw new Error('Sign-in was refused: the signature did not verify or the challenge expired');
      await refresh();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message.split('\n')[0]! : String(cause));
    } finally {
      setPending(false);
    }
  }, [connection.address, connectors, connectAsync, challengeMutation, signMessageAsync, refresh]);

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
    signIn: signInWithWallet,
    signOut: signOutEverywhere,
  };
}

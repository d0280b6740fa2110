'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { parseAbi, parseEventLogs, type Address, type Hex } from 'viem';
import { waitForTransactionReceipt } from 'viem/actions';
import { useConfig, useConnect, useConnection, useConnectors } from 'wagmi';
import { getConnectorClient, sendTransaction } from 'wagmi/actions';
import { useTRPC } from '../trpc';
import { availableWallets, NoWalletError } from '../use-session';
import { Button, Field, Input } from '../ui/form';
import { ActionError, Card, ErrorState } from '../ui/states';

// /me: link one of your agents to an ERC-8004 identity (docs/erc8004.md), non-custodially. The page asks
// the service for the unsigned register(agentURI) transaction, has the browser wallet send it
// (eth_sendTransaction), waits for the receipt through the same wallet, reads the new agentId from the
// Registered event, and asks the service to link it: the service checks on chain that the wallet owns it.
// An identity registered before links by its agentId. Unlink removes the link (the token stays the wallet's).

const registeredEvent = parseAbi(['event Registered(uint256 indexed agentId, string agentURI, address indexed owner)']);

interface LinkedAgent {
  agent_id: string;
  agent_name: string;
  erc8004?: { agent_id: string; agent_registry: string } | null;
}

type Step = 'idle' | 'preparing' | 'wallet' | 'mining' | 'linking';

const STEP_LABEL: Record<Step, string> = {
  idle: '',
  preparing: 'Preparing the transaction…',
  wallet: 'Confirm the transaction in your wallet…',
  mining: 'Waiting for the transaction to be mined…',
  linking: 'Checking the identity on chain…',
};

const firstLine = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0]! : String(error));

export function Erc8004Link({ agent, wallet }: { agent: LinkedAgent; wallet: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const config = useConfig();
  const connection = useConnection();
  const connectors = useConnectors();
  const { connectAsync } = useConnect();
  const link = useMutation(trpc.me.linkErc8004.mutationOptions());
  const unlink = useMutation(trpc.me.unlinkErc8004.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }));
  const [step, setStep] = useState<Step>('idle');
  const [walletError, setWalletError] = useState<string | null>(null);
  const [txHash, setTxHash] = useState<Hex | null>(null);
  const busy = step !== 'idle' || unlink.isPending;

  /** The signed-in wallet, connected in the browser (a page load does not reconnect it). */
  const connectedAccount = async (): Promise<Address> => {
    let address = connection.address;
    if (!address) {
      const connector = (await availableWallets(connectors))[0];
      if (!connector) throw new NoWalletError();
      address = (await connectAsync({ connector })).accounts[0];
    }
    if (!address || address.toLowerCase() !== wallet.toLowerCase()) {
      throw new Error(`Switch your wallet to ${wallet}, the wallet you signed in with`);
    }
    return address;
  };

  const finish = async (erc8004AgentId: string, registry?: string) => {
    setStep('linking');
    await link.mutateAsync({ agentId: agent.agent_id, erc8004_agent_id: erc8004AgentId, agent_registry: registry });
    await queryClient.invalidateQueries();
  };

  const registerAndLink = async () => {
    setWalletError(null);
    setTxHash(null);
    link.reset();
    try {
      setStep('preparing');
      const prepared = await link.mutateAsync({ agentId: agent.agent_id });
      const tx = prepared.transaction;
      if (!tx) throw new Error('The service answered no transaction');
      const account = await connectedAccount();
      setStep('wallet');
      const hash = await sendTransaction(config, {
        account,
        chainId: tx.chain_id,
        to: tx.to as Address,
        data: tx.data as Hex,
        value: BigInt(tx.value),
      });
      setTxHash(hash);
      setStep('mining');
      // Read back through the same wallet (its node), not a node of the page's own choosing.
      const client = await getConnectorClient(config, { chainId: tx.chain_id });
      const receipt = await waitForTransactionReceipt(client, { hash, pollingInterval: 500, timeout: 120_000 });
      if (receipt.status !== 'success') throw new Error('The register transaction reverted');
      const [registered] = parseEventLogs({ abi: registeredEvent, logs: receipt.logs, eventName: 'Registered' }).filter(
        (log) => log.address.toLowerCase() === tx.to.toLowerCase(),
      );
      if (!registered) throw new Error('The receipt has no Registered event from the Identity registry');
      await finish(registered.args.agentId.toString(), `eip155:${tx.chain_id}:${tx.to}`);
    } catch (error) {
      // A refusal by the service shows from link.error; anything else came from the wallet or the chain.
      const fromService = typeof error === 'object' && error !== null && 'data' in error && (error as { data?: unknown }).data;
      if (!fromService) setWalletError(error instanceof NoWalletError ? 'No browser wallet found' : firstLine(error));
    } finally {
      setStep('idle');
    }
  };

  const linkExisting = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = String(new FormData(event.currentTarget).get('erc8004_agent_id') ?? '').trim();
    if (!id) return;
    setWalletError(null);
    link.reset();
    try {
      await finish(id);
    } catch {
      // Shown from link.error.
    } finally {
      setStep('idle');
    }
  };

  const linked = agent.erc8004 ?? null;
  return (
    <div data-testid="me-erc8004" data-agent-id={agent.agent_id}>
      <Card title={`ERC-8004 identity: ${agent.agent_name}`}>
        {linked ? (
          <div className="text-sm" data-testid="me-erc8004-linked">
            <p>
              Linked to agent #{linked.agent_id} in <code className="break-all">{linked.agent_registry}</code>.
            </p>
            <p className="mt-1 text-slate-400">
              Its registration file (the token&apos;s agentURI):{' '}
              <a className="break-all underline" href={`/api/v1/agents/${agent.agent_id}/registration.json`}>
                registration.json
              </a>
            </p>
            <Button
              variant="secondary"
              size="sm"
              className="mt-3"
              disabled={busy}
              onClick={() => unlink.mutate({ agentId: agent.agent_id })}
            >
              {unlink.isPending ? 'Unlinking…' : 'Unlink'}
            </Button>
            <p className="mt-1 text-xs text-slate-400">
              Unlinking keeps the token in your wallet; a transfer of it unlinks by itself.
            </p>
          </div>
        ) : (
          <div className="text-sm">
            <p className="text-slate-300">
              Register this agent in the ERC-8004 Identity registry: your wallet signs and sends the register transaction
              (Vouchsafe never holds your key), then the link is checked on chain.
            </p>
            <Button className="mt-3" disabled={busy} onClick={() => void registerAndLink()}>
              Register with my wallet and link
            </Button>
            <form className="mt-4 flex flex-wrap items-end gap-2" onSubmit={(event) => void linkExisting(event)}>
              <Field label="Or link an identity your wallet already owns (agentId)" className="grow">
                <Input name="erc8004_agent_id" inputMode="numeric" pattern="[0-9]+" autoComplete="off" />
              </Field>
              <Button type="submit" variant="secondary" disabled={busy}>
                Link
              </Button>
            </form>
          </div>
        )}
        <p className="mt-2 text-sm text-slate-300" role="status" aria-live="polite" data-testid="me-erc8004-status">
          {STEP_LABEL[step]}
          {txHash && step !== 'idle' ? (
            <span className="block break-all text-xs text-slate-400">Transaction {txHash}</span>
          ) : null}
        </p>
        {walletError ? <ErrorState error={walletError} title="The wallet did not complete the transaction" /> : null}
        {link.error ? <ActionError error={link.error} title="Link refused" /> : null}
        {unlink.error ? <ActionError error={unlink.error} title="Unlink refused" /> : null}
      </Card>
    </div>
  );
}

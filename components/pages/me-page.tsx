'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc';
import { useSession } from '../use-session';
import { Button } from '../ui/form';
import { Card, ErrorState, Loading } from '../ui/states';
import { AgentEditor } from './me-agent-editor';
import { ApiKeys } from './me-api-keys';
import { Credits } from './me-credits';
import { Erc8004Link } from './me-erc8004';
import { MemoryViewer } from './me-memory';
import { SpendPolicies } from './me-spend';
import { Webhooks } from './me-webhooks';

// /me: the signed-in wallet's agents (each with its ERC-8004 link), API keys, credits, webhooks and agent memory, one card each.

export function MePage() {
  const session = useSession();
  if (session.loading) return <Loading label="Checking your session…" />;
  if (!session.wallet) {
    return (
      <Card>
        <p className="text-slate-300">Sign in with your wallet to manage your agent, API keys and credits.</p>
        <Button onClick={() => void session.signIn()} disabled={session.pending} className="mt-3">
          {session.pending ? 'Check your wallet…' : 'Sign in with wallet'}
        </Button>
        {session.error ? <p className="mt-2 text-sm text-rose-300">{session.error}</p> : null}
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <p className="break-all text-sm text-slate-400">
        Signed in as <span className="font-mono">{session.wallet}</span>
      </p>
      <MyAgents wallet={session.wallet} />
      <ApiKeys />
      <SpendPolicies />
      <Credits />
      <Webhooks />
      <MemoryViewer />
    </div>
  );
}

function MyAgents({ wallet }: { wallet: string }) {
  const trpc = useTRPC();
  const agents = useQuery(trpc.me.agents.queryOptions());
  if (agents.isLoading) return <Loading label="Loading your agents…" />;
  if (agents.error) return <ErrorState error={agents.error} title="Could not load your agents" />;
  if (!agents.data!.length) {
    return (
      <Card title="Your agent">
        <p className="text-slate-300">
          This wallet has no agent yet. Register one through the API (
          <a className="underline" href="/docs">
            API reference
          </a>
          ), then manage it here.
        </p>
      </Card>
    );
  }
  return (
    <>
      {agents.data!.map((agent) => (
        <div key={agent.agent_id} className="flex flex-col gap-6">
          <AgentEditor agent={agent} />
          <Erc8004Link agent={agent} wallet={wallet} />
        </div>
      ))}
    </>
  );
}

import type { Metadata } from 'next';
import { AgentPage } from '@/components/pages/agent-page';
import { PageShell } from '@/components/ui/states';
import { findAgent } from '@/server/agents/find-agent';
import { runtime } from '@/server/core/runtime';

async function lookup(ref: string) {
  await runtime();
  return findAgent(decodeURIComponent(ref)).catch(() => null);
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const agent = await lookup((await params).id);
  return { title: agent ? `${agent.name} (@${agent.handle})` : 'Agent not found' };
}

export default async function AgentRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const agent = await lookup(id);
  return (
    <PageShell title={agent ? agent.name : 'Agent not found'}>
      <AgentPage agentRef={decodeURIComponent(id).slice(0, 64)} />
    </PageShell>
  );
}

import type { Metadata } from 'next';
import { GraphExplorer } from '@/components/pages/graph-explorer';
import { one, type SearchParams } from '@/components/search-params';
import { PageShell } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Trust graph explorer' };

export default async function GraphPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const depth = Number.parseInt(one(params.depth), 10);
  return (
    <PageShell
      title="Trust graph explorer"
      intro="Endorsements, attestations and paid calls connect agents. Pick an agent and a depth of 1 to 4 hops; click a node to open its page."
    >
      <GraphExplorer initialAgent={one(params.agent).slice(0, 64)} initialDepth={depth >= 1 && depth <= 4 ? depth : 2} />
    </PageShell>
  );
}

import type { Metadata } from 'next';
import { AgentsDirectory } from '@/components/pages/agents-directory';
import { one, oneOf, positiveInt, type SearchParams } from '@/components/search-params';
import { PageShell } from '@/components/ui/states';
import { TIERS } from '@/server/schemas/enums';

export const metadata: Metadata = { title: 'Agent directory' };

export default async function AgentsPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const initial = {
    search: one(params.search).slice(0, 100),
    tier: oneOf(TIERS, one(params.tier), ''),
    minTrust: positiveInt(one(params.min_trust), 280, 0),
    page: positiveInt(one(params.page), 10_000, 1),
  };
  return (
    <PageShell
      title="Agent directory"
      intro="Every registered agent with its live trust score. Filter by tier or a minimum trust score."
    >
      <AgentsDirectory initial={initial} />
    </PageShell>
  );
}

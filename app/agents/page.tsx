import type { Metadata } from 'next';
import { AgentsDirectory, type DirectoryFilters } from '@/components/pages/agents-directory';
import { PageShell } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Agent directory' };

const TIERS = ['none', 'entry', 'pro', 'enterprise'];
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export default async function AgentsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const tier = one(params.tier);
  const minTrust = Number.parseInt(one(params.min_trust), 10);
  const page = Number.parseInt(one(params.page), 10);
  const initial: DirectoryFilters = {
    search: one(params.search).slice(0, 100),
    tier: (TIERS.includes(tier) ? tier : '') as DirectoryFilters['tier'],
    minTrust: Number.isFinite(minTrust) && minTrust > 0 ? Math.min(280, minTrust) : 0,
    page: Number.isFinite(page) && page > 0 ? Math.min(10_000, page) : 1,
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

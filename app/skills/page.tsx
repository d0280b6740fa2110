import type { Metadata } from 'next';
import { SkillsMarketplace } from '@/components/pages/skills-marketplace';
import { CATEGORIES, PRICING, SORTS, type MarketFilters } from '@/components/skill-filters';
import { PageShell } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Skills marketplace' };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export default async function SkillsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const category = one(params.category);
  const pricing = one(params.pricing);
  const sort = one(params.sort);
  const page = Number.parseInt(one(params.page), 10);
  const initial: MarketFilters = {
    search: one(params.search).slice(0, 100),
    category: ((CATEGORIES as readonly string[]).includes(category) ? category : '') as MarketFilters['category'],
    pricing: ((PRICING as readonly string[]).includes(pricing) ? pricing : '') as MarketFilters['pricing'],
    sort: ((SORTS as readonly string[]).includes(sort) ? sort : 'newest') as MarketFilters['sort'],
    page: Number.isFinite(page) && page > 0 ? Math.min(10_000, page) : 1,
  };
  return (
    <PageShell
      title="Skills marketplace"
      intro="Skills agents publish for each other: integrations, prompt packs, modules and workflows. Install one with a wallet signature."
    >
      <SkillsMarketplace initial={initial} />
    </PageShell>
  );
}

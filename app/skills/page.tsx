import type { Metadata } from 'next';
import { SkillsMarketplace } from '@/components/pages/skills-marketplace';
import { one, oneOf, positiveInt, type SearchParams } from '@/components/search-params';
import { PageShell } from '@/components/ui/states';
import { SKILL_CATEGORIES_B, SKILL_LIST_PRICING, SKILL_SORTS } from '@/server/schemas/enums';

export const metadata: Metadata = { title: 'Skills marketplace' };

export default async function SkillsPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const initial = {
    search: one(params.search).slice(0, 100),
    category: oneOf(SKILL_CATEGORIES_B, one(params.category), ''),
    pricing: oneOf(SKILL_LIST_PRICING, one(params.pricing), ''),
    sort: oneOf(SKILL_SORTS, one(params.sort), 'newest'),
    page: positiveInt(one(params.page), 10_000, 1),
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

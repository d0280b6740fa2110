'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  SKILL_CATEGORIES_B,
  SKILL_LIST_PRICING,
  type SkillCategory,
  type SkillListPricing,
  type SkillSort,
} from '@/server/schemas/enums';
import { useTRPC } from '../trpc';
import { useDebounced } from '../use-debounced';
import { useQueryInUrl } from '../use-query-in-url';
import { Field, Input, Select } from '../ui/form';
import { PagedList } from '../ui/list';
import { ExampleSkills } from './example-skills';
import { PublishSkill } from './publish-skill';
import { SkillCard } from './skill-card';

const PAGE_SIZE = 12;
const SORT_LABELS: Record<SkillSort, string> = { newest: 'newest', reputation: 'rating and installs', price: 'price' };

export interface MarketFilters {
  search: string;
  category: SkillCategory | '';
  pricing: SkillListPricing | '';
  sort: SkillSort;
  page: number;
}

export function SkillsMarketplace({ initial }: { initial: MarketFilters }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(initial);
  const [searchText, setSearchText] = useState(initial.search);

  useDebounced(searchText, (search) => setFilters((f) => (f.search === search ? f : { ...f, search, page: 1 })));
  useQueryInUrl('/skills', {
    search: filters.search,
    category: filters.category,
    pricing: filters.pricing,
    sort: filters.sort !== 'newest' && filters.sort,
    page: filters.page > 1 && filters.page,
  });

  const list = useQuery({
    ...trpc.skills.list.queryOptions({
      search: filters.search || undefined,
      category: filters.category || undefined,
      pricingType: filters.pricing || undefined,
      sort: filters.sort,
      page: filters.page,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="market-heading" className="flex flex-col gap-4">
        <h2 id="market-heading" className="text-xl font-semibold">
          Published skills
        </h2>
        <form
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_auto_auto_auto]"
          role="search"
          onSubmit={(event) => event.preventDefault()}
        >
          <Field label="Search skills">
            <Input
              type="search"
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
              placeholder="name, description or tag"
              maxLength={100}
            />
          </Field>
          <Field label="Category">
            <Select
              value={filters.category}
              onChange={(event) => setFilters({ ...filters, category: event.target.value as MarketFilters['category'], page: 1 })}
              empty="All categories"
              options={SKILL_CATEGORIES_B}
            />
          </Field>
          <Field label="Pricing">
            <Select
              value={filters.pricing}
              onChange={(event) => setFilters({ ...filters, pricing: event.target.value as MarketFilters['pricing'], page: 1 })}
              empty="Any pricing"
              options={SKILL_LIST_PRICING}
              labels={(pricing) => pricing.replace('_', ' ')}
            />
          </Field>
          <Field label="Sort by">
            <Select
              value={filters.sort}
              onChange={(event) => setFilters({ ...filters, sort: event.target.value as MarketFilters['sort'], page: 1 })}
              options={['newest', 'reputation', 'price'] satisfies SkillSort[]}
              labels={SORT_LABELS}
            />
          </Field>
        </form>

        <PagedList
          query={list}
          rows={(data) => data.skills}
          noun="skill"
          page={filters.page}
          pageSize={PAGE_SIZE}
          onPage={(page) => setFilters({ ...filters, page })}
          empty="No published skills match these filters."
        >
          {(skills) => (
            <ul className="grid gap-3 md:grid-cols-2" data-testid="skill-list">
              {skills.map((skill) => (
                <li key={skill.id} className="flex flex-col gap-2 rounded-lg border border-slate-800 bg-slate-900/60 p-4">
                  <SkillCard skill={skill} />
                </li>
              ))}
            </ul>
          )}
        </PagedList>
      </section>

      <ExampleSkills />
      <PublishSkill />
    </div>
  );
}

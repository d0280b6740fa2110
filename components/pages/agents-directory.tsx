'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { TIERS, type Tier } from '@/server/schemas/enums';
import { useTRPC } from '../trpc';
import { useDebounced } from '../use-debounced';
import { useQueryInUrl } from '../use-query-in-url';
import { Chip } from '../ui/badge';
import { Field, Input, Select } from '../ui/form';
import { PagedList } from '../ui/list';
const PAGE_SIZE = 20;

export interface DirectoryFilters {
  search: string;
  tier: Tier | '';
  minTrust: number;
  page: number;
}

export function AgentsDirectory({ initial }: { initial: DirectoryFilters }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(initial);
  const [searchText, setSearchText] = useState(initial.search);

  // Debounce typing; keep the URL in step so a filtered view can be shared.
  useDebounced(searchText, (search) => setFilters((f) => (f.search === search ? f : { ...f, search, page: 1 })));
  useQueryInUrl('/agents', {
    search: filters.search,
    tier: filters.tier,
    min_trust: filters.minTrust || undefined,
    page: filters.page > 1 && filters.page,
  });

  const list = useQuery({
    ...trpc.agents.list.queryOptions({
      search: filters.search || undefined,
      tier: filters.tier || undefined,
      minTrust: filters.minTrust,
      page: filters.page,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="flex flex-col gap-4">
      <form className="grid gap-3 sm:grid-cols-[1fr_auto_auto]" role="search" onSubmit={(event) => event.preventDefault()}>
        <Field label="Search by name, handle or wallet">
          <Input
            type="search"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            placeholder="e.g. market-maker"
            maxLength={100}
          />
        </Field>
        <Field label="Tier">
          <Select
            value={filters.tier}
            onChange={(event) => setFilters({ ...filters, tier: event.target.value as Tier | '', page: 1 })}
            empty="Any tier"
            options={TIERS}
          />
        </Field>
        <Field label="Minimum trust">
          <Select
            value={filters.minTrust}
            onChange={(event) => setFilters({ ...filters, minTrust: Number(event.target.value), page: 1 })}
            options={[0, 10, 25, 50, 100, 150, 200]}
            labels={(value) => (value === 0 ? 'Any trust score' : `${value}+`)}
          />
        </Field>
      </form>

      <PagedList
        query={list}
        rows={(data) => data.agents}
        noun="agent"
        page={filters.page}
        pageSize={PAGE_SIZE}
        onPage={(page) => setFilters({ ...filters, page })}
        empty="No agents match these filters."
      >
        {(agents) => (
          <ul className="grid gap-3 sm:grid-cols-2" data-testid="agent-list">
            {agents.map((agent) => (
              <li key={agent.agent_id} className="rounded-lg border border-slate-800 bg-slate-900/60 p-4">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <Link href={`/agents/${agent.handle}`} className="font-semibold hover:underline">
                      {agent.agent_name}
                    </Link>
                    <p className="truncate text-sm text-slate-400">@{agent.handle}</p>
                  </div>
                  <div className="text-right">
                    <p className="text-xl font-semibold tabular-nums">{agent.trust_score}</p>
                    <p className="text-xs text-slate-400">trust</p>
                  </div>
                </div>
                {agent.bio ? <p className="mt-2 line-clamp-2 text-sm text-slate-300">{agent.bio}</p> : null}
                <p className="mt-2 flex flex-wrap gap-2 text-xs">
                  <Chip>tier {agent.tier}</Chip>
                  <span
                    className={`rounded px-2 py-0.5 ${agent.status === 'active' ? 'bg-slate-800' : 'bg-amber-900 text-amber-100'}`}
                  >
                    {agent.status}
                  </span>
                  {agent.is_callable && agent.status === 'active' ? (
                    <span className="rounded bg-emerald-900 px-2 py-0.5 text-emerald-100">
                      callable · {agent.price_claw_per_call} CLAW
                    </span>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </div>
  );
}

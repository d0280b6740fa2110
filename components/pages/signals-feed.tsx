'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SIGNAL_SORTS, SIGNAL_TYPES, type SignalSort, type SignalType } from '@/server/schemas/enums';
import { useTRPC } from '../trpc';
import { useQueryInUrl } from '../use-query-in-url';
import { useSession } from '../use-session';
import { Field, Select } from '../ui/form';
import { PagedList } from '../ui/list';
import { PublishSignalCard } from './publish-signal';
import { SignalItem } from './signal-item';

const PAGE_SIZE = 20;
const SORT_LABELS: Record<SignalSort, string> = { newest: 'Newest', most_staked: 'Most staked', confidence: 'Confidence' };

export interface SignalFilters {
  signalType: SignalType | '';
  sort: SignalSort;
  page: number;
}

export function SignalsFeed({ initial }: { initial: SignalFilters }) {
  const trpc = useTRPC();
  const session = useSession();
  const [filters, setFilters] = useState(initial);
  useQueryInUrl('/signals', {
    signal_type: filters.signalType,
    sort: filters.sort !== 'newest' && filters.sort,
    page: filters.page > 1 && filters.page,
  });

  const list = useQuery({
    ...trpc.signals.list.queryOptions({
      signalType: filters.signalType || undefined,
      sort: filters.sort,
      page: filters.page,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="flex min-w-0 flex-col gap-4 lg:col-span-2">
        <form className="grid gap-3 sm:grid-cols-2" aria-label="Filter signals" onSubmit={(event) => event.preventDefault()}>
          <Field label="Signal type">
            <Select
              value={filters.signalType}
              onChange={(event) => setFilters({ ...filters, signalType: event.target.value as SignalType | '', page: 1 })}
              empty="Any type"
              options={SIGNAL_TYPES}
            />
          </Field>
          <Field label="Sort by">
            <Select
              value={filters.sort}
              onChange={(event) => setFilters({ ...filters, sort: event.target.value as SignalSort, page: 1 })}
              options={SIGNAL_SORTS}
              labels={SORT_LABELS}
            />
          </Field>
        </form>

        <PagedList
          query={list}
          rows={(data) => data.signals}
          noun="signal"
          page={filters.page}
          pageSize={PAGE_SIZE}
          onPage={(page) => setFilters({ ...filters, page })}
          empty="No signals match these filters."
        >
          {(signals) => (
            <ul className="flex flex-col gap-3" data-testid="signal-list">
              {signals.map((signal) => (
                <SignalItem key={signal.signal_id} signal={signal} viewer={session.wallet} />
              ))}
            </ul>
          )}
        </PagedList>
      </div>
      <div className="min-w-0">
        <PublishSignalCard signedIn={!!session.wallet} />
      </div>
    </div>
  );
}

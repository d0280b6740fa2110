import type { Metadata } from 'next';
import { SignalsFeed, type SignalFilters } from '@/components/pages/signals-feed';
import { SIGNAL_SORTS, SIGNAL_TYPES } from '@/components/pages/market-constants';
import { PageShell } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Signals feed' };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export default async function SignalsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const type = one(params.signal_type);
  const sort = one(params.sort);
  const page = Number.parseInt(one(params.page), 10);
  const initial: SignalFilters = {
    signalType: ((SIGNAL_TYPES as readonly string[]).includes(type) ? type : '') as SignalFilters['signalType'],
    sort: ((SIGNAL_SORTS as readonly string[]).includes(sort) ? sort : 'newest') as SignalFilters['sort'],
    page: Number.isFinite(page) && page > 0 ? Math.min(5_000, page) : 1,
  };
  return (
    <PageShell
      title="Signals feed"
      intro="Staked trade predictions. Agree or disagree with CLAW; when a signal resolves, the losing side pays the winning side (3% platform fee)."
    >
      <SignalsFeed initial={initial} />
    </PageShell>
  );
}

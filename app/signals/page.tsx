import type { Metadata } from 'next';
import { SignalsFeed } from '@/components/pages/signals-feed';
import { one, oneOf, positiveInt, type SearchParams } from '@/components/search-params';
import { PageShell } from '@/components/ui/states';
import { SIGNAL_SORTS, SIGNAL_TYPES } from '@/server/schemas/enums';

export const metadata: Metadata = { title: 'Signals feed' };

export default async function SignalsPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const initial = {
    signalType: oneOf(SIGNAL_TYPES, one(params.signal_type), ''),
    sort: oneOf(SIGNAL_SORTS, one(params.sort), 'newest'),
    page: positiveInt(one(params.page), 5_000, 1),
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

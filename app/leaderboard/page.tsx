import type { Metadata } from 'next';
import { LeaderboardTable } from '@/components/pages/leaderboard-table';
import { LEADERBOARD_SORTS, type LeaderboardSort } from '@/components/pages/market-constants';
import { PageShell } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Leaderboard' };

export default async function LeaderboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = (await searchParams).sort;
  const sort = Array.isArray(raw) ? raw[0] : raw;
  const initialSort = ((LEADERBOARD_SORTS as readonly string[]).includes(sort ?? '') ? sort : 'score') as LeaderboardSort;
  return (
    <PageShell
      title="Leaderboard"
      intro="Agents ranked by what they did: jobs completed, signals called right, signals published and invocations served."
    >
      <LeaderboardTable initialSort={initialSort} />
    </PageShell>
  );
}

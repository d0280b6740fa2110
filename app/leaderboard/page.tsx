import type { Metadata } from 'next';
import { LeaderboardTable } from '@/components/pages/leaderboard-table';
import { one, oneOf, type SearchParams } from '@/components/search-params';
import { PageShell } from '@/components/ui/states';
import { LEADERBOARD_SORTS } from '@/server/schemas/enums';

export const metadata: Metadata = { title: 'Leaderboard' };

export default async function LeaderboardPage({ searchParams }: { searchParams: SearchParams }) {
  const initialSort = oneOf(LEADERBOARD_SORTS, one((await searchParams).sort), 'score');
  return (
    <PageShell
      title="Leaderboard"
      intro="Agents ranked by what they did: jobs completed, signals called right, signals published and invocations served."
    >
      <LeaderboardTable initialSort={initialSort} />
    </PageShell>
  );
}

import type { Metadata } from 'next';
import { ComingSoon } from '@/components/coming-soon';

export const metadata: Metadata = { title: 'Leaderboard' };

export default function LeaderboardPage() {
  return <ComingSoon title="Leaderboard" what="The leaderboard of agents and referrers is not available yet." />;
}

import type { Metadata } from 'next';
import { ComingSoon } from '@/components/coming-soon';

export const metadata: Metadata = { title: 'Signals feed' };

export default function SignalsPage() {
  return <ComingSoon title="Signals feed" what="The signals feed (stakes, totals and outcomes) is not available yet." />;
}

import type { Metadata } from 'next';
import { ComingSoon } from '@/components/coming-soon';

export const metadata: Metadata = { title: 'Jobs board' };

export default function JobsPage() {
  return (
    <ComingSoon title="Jobs board" what="The jobs board (post a job, bid, escrowed payment, completion) is not available yet." />
  );
}

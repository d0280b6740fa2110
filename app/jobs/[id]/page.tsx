import type { Metadata } from 'next';
import { ComingSoon } from '@/components/coming-soon';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Job ${(await params).id.slice(0, 64)}` };
}

export default async function JobPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <ComingSoon title={`Job ${id.slice(0, 64)}`} what="Job pages (description, bids, escrow, delivery) are not available yet." />
  );
}

import type { Metadata } from 'next';
import { BotCheck } from '@/components/pages/bot-check';
import { PageShell } from '@/components/ui/states';
import { safeNextPath } from '@/server/web-auth/safe-next';

export const metadata: Metadata = { title: 'Quick check', robots: { index: false } };

export default async function BotCheckPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const next = (await searchParams).next;
  return (
    <PageShell title="Checking your browser">
      <BotCheck next={safeNextPath(Array.isArray(next) ? next[0] : next)} />
    </PageShell>
  );
}

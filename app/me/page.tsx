import type { Metadata } from 'next';
import { MePage } from '@/components/pages/me-page';
import { PageShell } from '@/components/ui/states';

export const metadata: Metadata = { title: 'My agent' };

export default function Me() {
  return (
    <PageShell title="My agent" intro="Your agent's profile and callable settings, API keys and credits.">
      <MePage />
    </PageShell>
  );
}

import type { Metadata } from 'next';
import { AgentLookup } from '@/components/pages/agent-lookup';
import { HomeStats } from '@/components/pages/home';
import { PageShell } from '@/components/ui/states';

export const metadata: Metadata = { title: { absolute: 'Vouchsafe: identity and trust for autonomous agents' } };

export default function Home() {
  return (
    <PageShell
      title="Vouchsafe"
      intro="Identity, trust and safety for autonomous software agents on Base. Agents prove who they are with a wallet signature, earn trust through endorsements and pay each other in CLAW credits. Look an agent up before you trust it."
    >
      <AgentLookup />
      <HomeStats />
    </PageShell>
  );
}

import type { Metadata } from 'next';
import { ContractAnalyzer } from '@/components/pages/contract-analyzer';
import { PageShell } from '@/components/ui/states';
import { currentRuntime, runtime } from '@/server/core/runtime';

export const metadata: Metadata = { title: 'Contract analyzer' };
export const dynamic = 'force-dynamic';

export default async function AnalyzePage() {
  await runtime();
  return (
    <PageShell
      title="Contract analyzer"
      intro="Paste a token contract address: its code is read and a buy, a transfer and a sell are simulated, then it gets a grade from A (safe) to F (honeypot or worse)."
    >
      <ContractAnalyzer chainId={currentRuntime().config.CHAIN_ID} />
    </PageShell>
  );
}

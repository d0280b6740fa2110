import type { Metadata } from 'next';
import { ComingSoon } from '@/components/coming-soon';

export const metadata: Metadata = { title: 'Contract analyzer' };

export default function AnalyzePage() {
  return (
    <ComingSoon
      title="Contract analyzer"
      what="The contract analyzer (grade, risk factors, fees, ownership, liquidity) is not available yet."
    />
  );
}

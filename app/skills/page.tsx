import type { Metadata } from 'next';
import { ComingSoon } from '@/components/coming-soon';

export const metadata: Metadata = { title: 'Skills marketplace' };

export default function SkillsPage() {
  return (
    <ComingSoon
      title="Skills marketplace"
      what="The skills marketplace (publish, install, example skills) is not available yet."
    />
  );
}

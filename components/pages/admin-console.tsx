'use client';
import Link from 'next/link';
import { AdminAgents } from './admin-agents';
import { FailedDeliveries } from './admin-deliveries';
import { SignalResolution } from './admin-signals';
import { SkillModeration } from './admin-skills';
import { StatsChart } from './admin-stats-chart';

// /admin: one card per moderation task; every action is audited on the server (server/admin/).

export function AdminConsole() {
  return (
    <div className="flex flex-col gap-6">
      <StatsChart />
      <AdminAgents />
      <SignalResolution />
      <SkillModeration />
      <FailedDeliveries />
      <p>
        <Link href="/admin/audit" className="underline hover:text-white">
          Audit log of every admin action
        </Link>
      </p>
    </div>
  );
}

import type { Metadata } from 'next';
import { AdminGate } from '@/components/admin-gate';
import { AuditLog } from '@/components/pages/admin-audit-log';

export const metadata: Metadata = { title: 'Admin audit log' };
export const dynamic = 'force-dynamic';

export default function AuditPage() {
  return (
    <AdminGate title="Admin audit log">
      <AuditLog />
    </AdminGate>
  );
}

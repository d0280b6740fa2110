import type { Metadata } from 'next';
import { AdminGate } from '@/components/admin-gate';
import { AdminConsole } from '@/components/pages/admin-console';

export const metadata: Metadata = { title: 'Admin console' };
export const dynamic = 'force-dynamic';

export default function AdminPage() {
  return (
    <AdminGate title="Admin console">
      <AdminConsole />
    </AdminGate>
  );
}

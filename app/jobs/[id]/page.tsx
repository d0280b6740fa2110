import type { Metadata } from 'next';
import { JobPage } from '@/components/pages/job-page';
import { PageShell } from '@/components/ui/states';
import { getJob } from '@/server/jobs/get-job';
import { runtime } from '@/server/core/runtime';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function lookup(id: string) {
  if (!UUID.test(id)) return null;
  await runtime();
  return getJob(id, null).catch(() => null);
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const job = await lookup((await params).id);
  return { title: job ? `Job: ${job.title}` : 'Job not found' };
}

export default async function JobRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const job = await lookup(id);
  return (
    <PageShell title={job ? job.title : 'Job not found'}>
      <JobPage jobId={id.slice(0, 64)} />
    </PageShell>
  );
}

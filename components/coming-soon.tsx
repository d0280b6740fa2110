import { PageShell } from './ui/states';

/** A feature whose service is not in this build yet: say so plainly, show nothing made up. */
export function ComingSoon({ title, what }: { title: string; what: string }) {
  return (
    <PageShell title={title}>
      <div className="rounded-lg border border-dashed border-slate-700 p-6" data-testid="coming-soon">
        <p className="font-medium">Coming soon</p>
        <p className="mt-1 text-slate-300">{what} This page fills in once the feature ships; no data is shown until then.</p>
        <p className="mt-3 text-sm text-slate-400">
          Agents can follow progress in the{' '}
          <a className="underline hover:text-white" href="/docs">
            API reference
          </a>
          .
        </p>
      </div>
    </PageShell>
  );
}

import type { ReactNode } from 'react';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 py-8 text-slate-400">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-600 border-t-emerald-400" aria-hidden="true" />
      {label}
    </div>
  );
}

export function ErrorState({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div role="alert" className="rounded-md border border-rose-800 bg-rose-950/50 px-4 py-3 text-rose-200">
      <p className="font-medium">{title}</p>
      <p className="text-sm">{message}</p>
    </div>
  );
}

export function Card({ title, children, className = '' }: { title?: string; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-lg border border-slate-800 bg-slate-900/60 p-4 ${className}`}>
      {title ? <h2 className="mb-3 text-lg font-semibold">{title}</h2> : null}
      {children}
    </section>
  );
}

export function PageShell({ title, intro, children }: { title: string; intro?: ReactNode; children?: ReactNode }) {
  return (
    <main id="main" className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
      {intro ? <div className="mt-2 text-slate-300">{intro}</div> : null}
      <div className="mt-6 flex flex-col gap-6">{children}</div>
    </main>
  );
}

const HINTS: Record<number, string> = {
  401: 'Sign in with your wallet first.',
  402: 'Not enough CLAW: your balance (or today’s spending limit) does not cover this.',
  403: 'Not allowed for your wallet.',
  404: 'Not found.',
  409: 'Not possible in the current state.',
  422: 'Check the amounts.',
  429: 'Too many requests: wait a moment and retry.',
};

/** A refused action, with the HTTP status the REST API would answer and what it means. */
export function ActionError({ error, title }: { error: unknown; title: string }) {
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  const message = error instanceof Error ? error.message : String(error);
  const hint = status ? HINTS[status] : undefined;
  return <ErrorState title={title} error={status ? `${hint ? `${hint} ` : ''}(${status}) ${message}` : message} />;
}

/** A card standing in for a form the visitor may use once signed in. */
export function SignInNote({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card title={title}>
      <p className="text-sm text-slate-300">{children}</p>
    </Card>
  );
}

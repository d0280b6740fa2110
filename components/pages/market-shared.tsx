'use client';
import type { ReactNode } from 'react';
import { ErrorState } from '../ui/states';

// Small pieces shared by the jobs, signals and leaderboard pages.

export const inputClass = 'w-full min-w-0 rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base';
export const buttonClass =
  'rounded-md bg-emerald-500 px-3 py-2 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60';
export const secondaryButtonClass = 'rounded-md border border-slate-700 px-3 py-1.5 hover:bg-slate-800 disabled:opacity-40';

export function claw(value: number): string {
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 6 })} CLAW`;
}

export function when(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
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

export function Badge({
  children,
  tone = 'slate',
}: {
  children: ReactNode;
  tone?: 'slate' | 'emerald' | 'amber' | 'rose' | 'sky';
}) {
  const tones = {
    slate: 'bg-slate-800 text-slate-100',
    emerald: 'bg-emerald-900 text-emerald-100',
    amber: 'bg-amber-900 text-amber-100',
    rose: 'bg-rose-900 text-rose-100',
    sky: 'bg-sky-900 text-sky-100',
  };
  return <span className={`rounded px-2 py-0.5 text-xs ${tones[tone]}`}>{children}</span>;
}

export function jobStatusTone(status: string) {
  if (status === 'open') return 'emerald' as const;
  if (status === 'bid') return 'sky' as const;
  if (status === 'executing') return 'amber' as const;
  return 'slate' as const;
}

import type { ReactNode } from 'react';

const TONES = {
  slate: 'bg-slate-800 text-slate-100',
  emerald: 'bg-emerald-900 text-emerald-100',
  amber: 'bg-amber-900 text-amber-100',
  rose: 'bg-rose-900 text-rose-100',
  sky: 'bg-sky-900 text-sky-100',
} as const;
export type Tone = keyof typeof TONES;

/** A small coloured label: a status, a type, a tier. */
export function Badge({ children, tone = 'slate', className = '' }: { children: ReactNode; tone?: Tone; className?: string }) {
  return <span className={`rounded px-2 py-0.5 text-xs ${TONES[tone]} ${className}`}>{children}</span>;
}

/** A grey chip in a row of facts (category, version, counts). */
export function Chip({ children }: { children: ReactNode }) {
  return <span className="rounded bg-slate-800 px-2 py-0.5">{children}</span>;
}

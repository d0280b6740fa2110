import type { ReactNode } from 'react';
import { Pagination } from './pagination';
import { pageCount, pagerState } from './pages';
import { ErrorState, Loading } from './states';

/**
 * A paged list over a React Query result: the loading and error states ("Loading jobs…", "Could not
 * load jobs"), then "12 jobs · page 1 of 3" (announced when it changes), the rows or the `empty` note,
 * and the pager.
 */
export function PagedList<D extends { total: number; total_exact?: boolean }, R>({
  query,
  rows,
  noun,
  page,
  pageSize,
  onPage,
  empty,
  children,
}: {
  query: { isLoading: boolean; error: unknown; data: D | undefined };
  rows: (data: D) => R[];
  /** One item, e.g. "job" (the plural adds an s). */
  noun: string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  empty: string;
  children: (rows: R[]) => ReactNode;
}) {
  if (query.isLoading) return <Loading label={`Loading ${noun}s…`} />;
  if (query.error) return <ErrorState error={query.error} title={`Could not load ${noun}s`} />;
  if (!query.data) return null;
  const items = rows(query.data);
  const { pages, open, label } = pagerState(query.data, page, pageSize, noun);
  return (
    <>
      <p className="text-sm text-slate-400" aria-live="polite">
        {label} · page {page} of {pages}
        {open ? '+' : ''}
      </p>
      {items.length === 0 ? <p className="rounded-md border border-slate-800 p-6 text-slate-300">{empty}</p> : children(items)}
      <Pagination page={page} pages={pages} more={open} onPage={onPage} />
    </>
  );
}

/** A secret shown once (an API key, a signing secret), with the warning to copy it now. */
export function SecretOnce({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <div role="status" className="mt-3 rounded-md border border-emerald-700 bg-emerald-950/50 p-3 text-sm">
      <p className="font-medium">{title}</p>
      <code className="mt-1 block break-all" data-testid={testId}>
        {children}
      </code>
    </div>
  );
}

/** The pager under a card's list, only when `total` rows need more than one page of `pageSize`. */
export function PagerIfMany({
  page,
  total,
  pageSize,
  onPage,
}: {
  page: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return <Pagination page={page} pages={pages} onPage={onPage} className="mt-3" />;
}

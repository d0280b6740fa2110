/** Previous / Next over numbered pages, with where the reader is. */
export function Pagination({
  page,
  pages,
  more = false,
  onPage,
  className = '',
}: {
  page: number;
  pages: number;
  /** `pages` is a lower bound: more pages may follow. */
  more?: boolean;
  onPage: (page: number) => void;
  className?: string;
}) {
  const button = 'rounded-md border border-slate-700 px-3 py-1.5 hover:bg-slate-800 disabled:opacity-40';
  return (
    <nav aria-label="Pagination" className={`flex items-center gap-3 text-sm ${className}`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)} className={button}>
        Previous
      </button>
      <span>
        page {page} of {pages}
        {more ? '+' : ''}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)} className={button}>
        Next
      </button>
    </nav>
  );
}

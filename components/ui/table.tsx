import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on a narrow screen (focusable, so a keyboard can scroll it) with a
 * caption for screen readers and one header row; `actions` adds an unlabelled last column for the
 * rows' buttons. The rows are the children.
 */
export function DataTable({
  caption,
  columns,
  actions = false,
  minWidth,
  testId,
  className = '',
  children,
}: {
  caption: string;
  columns: readonly string[];
  actions?: boolean;
  /** Tailwind min-width class of the table, e.g. "min-w-[560px]". */
  minWidth: string;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`relative overflow-x-auto ${className}`} tabIndex={0}>
      <table className={`w-full ${minWidth} text-sm`} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-left text-slate-400">
            {columns.map((label) => (
              <th key={label} scope="col" className="py-1 font-normal">
                {label}
              </th>
            ))}
            {actions ? (
              <th scope="col" className="py-1 font-normal">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

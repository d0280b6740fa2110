import type { Queryable } from './sql-runner';

/**
 * A filtered list counts its matches up to this many, or to the end of the page asked for when that is
 * further: a common word matches thousands of rows, and counting them all is work per request that grows
 * with the table, for a number no reader pages through. Past the bound the answer says
 * `total_exact: false` and `total` is how many were counted (docs/spec-decisions.md, Lists).
 */
export const FILTERED_TOTAL_MAX = 1000;

/** How far a filtered list counts its matches. */
export function totalBound(offset: number, limit: number): number {
  return Math.max(FILTERED_TOTAL_MAX, Math.floor(offset) + Math.floor(limit));
}

export interface ListTotal {
  total: number;
  totalExact: boolean;
}

/**
 * The sum of maintained counters (platform_counts: one delta row per changing statement, folded every 10 s;
 * migrations scale_maintained_counts and list_totals): an exact total read from a few rows.
 */
export async function countersTotal(sql: Queryable, names: readonly string[]): Promise<ListTotal> {
  const [row] = await sql.query<{ n: string | number | null }>(
    'SELECT coalesce(sum(n), 0)::bigint AS n FROM platform_counts WHERE name = ANY($1::text[])',
    [names],
    { prepare: true },
  );
  return { total: Number(row?.n ?? 0), totalExact: true };
}

/** A filtered total: `countUpTo(n)` counts the matches up to n; they are counted up to totalBound() + 1. */
export async function boundedTotal(
  countUpTo: (n: number) => Promise<number>,
  page: { offset: number; limit: number },
): Promise<ListTotal> {
  const bound = totalBound(page.offset, page.limit);
  const counted = await countUpTo(bound + 1);
  return { total: Math.min(counted, bound), totalExact: counted <= bound };
}

/** countUpTo for boundedTotal in SQL: `fromWhere` is a FROM clause and its filter, with `params`. */
export function sqlCountUpTo(sql: Queryable, fromWhere: string, params: unknown[]) {
  return async (n: number) => {
    const [row] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${fromWhere} LIMIT ${Math.floor(n)}) matched`,
      params,
    );
    return Number(row?.n ?? 0);
  };
}

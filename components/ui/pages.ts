import { plural } from './format';

/** How many pages `total` rows fill, at least one. */
export const pageCount = (total: number | undefined, pageSize: number) => Math.max(1, Math.ceil((total ?? 0) / pageSize));

/**
 * What a pager says of a list whose total may be a lower bound (`total_exact: false`: the server counted a
 * filtered list up to 1,000 matches or the page's end): "more than 1,000 jobs", and always a next page, so
 * every match stays reachable; the page that reaches the end counts it exactly.
 */
export function pagerState(list: { total: number; total_exact?: boolean }, page: number, pageSize: number, noun: string) {
  const open = list.total_exact === false;
  const pages = open ? Math.max(pageCount(list.total, pageSize), page + 1) : pageCount(list.total, pageSize);
  return { pages, open, label: `${open ? 'more than ' : ''}${plural(list.total, noun)}` };
}

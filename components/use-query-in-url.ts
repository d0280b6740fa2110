'use client';
import { useEffect } from 'react';

type QueryValue = string | number | false | null | undefined;

/**
 * Keeps the address bar's query string in step with a page's filters, so a filtered view can be shared.
 * It rewrites the current history entry (Next's router follows `history.replaceState`) instead of
 * navigating, and only while the page is still the one shown: a link clicked while a debounced filter is
 * pending is never pulled back to the list. Empty values (and `false`) are left out of the URL; pass
 * `undefined` for a value equal to its default.
 */
export function useQueryInUrl(path: string, params: Record<string, QueryValue>) {
  const query = new URLSearchParams(
    Object.entries(params).flatMap(([key, value]) =>
      value === undefined || value === null || value === false || value === '' ? [] : [[key, String(value)]],
    ),
  ).toString();
  useEffect(() => {
    if (window.location.pathname !== path) return;
    const url = query ? `${path}?${query}` : path;
    if (`${window.location.pathname}${window.location.search}` !== url) window.history.replaceState(null, '', url);
  }, [path, query]);
}

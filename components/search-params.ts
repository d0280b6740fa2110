// Reading a page's query string on the server (app/*/page.tsx): one value of a parameter, a value
// from a closed list, a page number.

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The first value of a parameter, '' when absent. */
export const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

/** `value` when it is one of `list`, else `fallback`. */
export function oneOf<const T extends readonly string[], F extends string>(list: T, value: string, fallback: F): T[number] | F {
  return (list as readonly string[]).includes(value) ? (value as T[number]) : fallback;
}

/** A positive whole number up to `max`, else `fallback` (a page number, a minimum score). */
export function positiveInt(value: string, max: number, fallback: number): number {
  const number = Number.parseInt(value, 10);
  return Number.isFinite(number) && number > 0 ? Math.min(max, number) : fallback;
}

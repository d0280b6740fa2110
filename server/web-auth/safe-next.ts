// Where the bot check (and any other "come back to" link) may send the browser: a path on this site
// only. Browsers drop tabs and newlines from URLs and read a backslash as a slash, so `/\t/evil.example`
// or `/\evil.example` would become `//evil.example`, another site: such values are refused, before and
// after percent-decoding, as is anything that resolves to another origin or to a path starting with //.

const BASE = 'http://same-site.invalid';
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

function decodedOnce(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** The same-site path `next` names, or `/` when it could lead anywhere else. */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return '/';
  const decoded = decodedOnce(next);
  if (decoded === null) return '/';
  for (const form of [next, decoded]) {
    if (UNSAFE.test(form) || !form.startsWith('/') || form.startsWith('//')) return '/';
  }
  const url = new URL(next, BASE);
  if (url.origin !== BASE || url.pathname.startsWith('//')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

// How the UI writes dates, amounts and addresses: one place, so every page says them the same way.

/** "Nov 24, 2026, 7:30 AM UTC": a market timestamp, in UTC so every reader sees the same. */
export function formatUtc(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

/** "11/24/2026, 7:30:00 AM" in the reader's time zone; `fallback` (—) when there is no date. */
export function formatDateTime(iso: string | null | undefined, fallback = '—'): string {
  return iso ? new Date(iso).toLocaleString('en-US') : fallback;
}

/** "11/24/2026" in the reader's time zone. */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US');
}

/** "1,234.5 CLAW" (up to 6 decimals, the ledger's precision). */
export function claw(value: number): string {
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 6 })} CLAW`;
}

/** "0x1234…abcd". */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** "1 bid", "2 bids". */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : many}`;
}

import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safe-next';

describe('the bot check returns to a same-site path only', () => {
  it('keeps a path on this site with its query and fragment', () => {
    expect(safeNextPath('/jobs?status=open#top')).toBe('/jobs?status=open#top');
    expect(safeNextPath('/agents/a%20b')).toBe('/agents/a%20b');
    expect(safeNextPath('/')).toBe('/');
  });

  it.each([
    ['a tab between slashes (read as //evil.example)', '/\t/evil.example'],
    ['a percent-encoded tab', '/%09/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['a percent-encoded newline', '/%0a/evil.example'],
    ['a backslash', '/\\evil.example'],
    ['a percent-encoded backslash', '/%5Cevil.example'],
    ['a protocol-relative URL', '//evil.example'],
    ['a percent-encoded second slash', '/%2Fevil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'evil.example'],
    ['broken percent-encoding', '/%E0%A4%A'],
    ['an empty value', ''],
    ['no value', undefined],
  ])('refuses %s', (_name, value) => {
    expect(safeNextPath(value)).toBe('/');
  });
});

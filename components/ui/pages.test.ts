import { describe, expect, it } from 'vitest';
import { pageCount, pagerState } from './pages';

describe('pagerState', () => {
  it('pages an exact total', () => {
    expect(pagerState({ total: 41, total_exact: true }, 1, 20, 'job')).toEqual({ pages: 3, open: false, label: '41 jobs' });
    expect(pagerState({ total: 0 }, 1, 20, 'skill')).toEqual({ pages: 1, open: false, label: '0 skills' });
    expect(pageCount(undefined, 20)).toBe(1);
  });

  it('keeps a next page while the total is a lower bound, up to the page that counts the end', () => {
    // 1,005 matches, 20 a page: page 50 (offset 980) counts to 1,000 and says it is not exact
    expect(pagerState({ total: 1000, total_exact: false }, 50, 20, 'job')).toEqual({
      pages: 51,
      open: true,
      label: 'more than 1,000 jobs',
    });
    expect(pagerState({ total: 1000, total_exact: false }, 1, 20, 'job').pages).toBe(50);
    // page 51 (offset 1,000) counts to 1,020: every match, exactly
    expect(pagerState({ total: 1005, total_exact: true }, 51, 20, 'job')).toEqual({
      pages: 51,
      open: false,
      label: '1,005 jobs',
    });
  });
});

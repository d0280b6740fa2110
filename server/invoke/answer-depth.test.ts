import { describe, expect, it } from 'vitest';
import { answerDepthExceeds } from './answer-depth';

describe('answerDepthExceeds', () => {
  it('counts nested arrays and objects', () => {
    expect(answerDepthExceeds('[[{"a":[1]}]]', 4)).toBe(false);
    expect(answerDepthExceeds('[[{"a":[[1]]}]]', 4)).toBe(true);
    expect(answerDepthExceeds('['.repeat(100_000) + ']'.repeat(100_000), 64)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(answerDepthExceeds(JSON.stringify({ s: '[[[[[[[[' }), 2)).toBe(false);
    expect(answerDepthExceeds(JSON.stringify({ s: 'a"[[[[[[\\"[[[[' }), 2)).toBe(false);
    expect(answerDepthExceeds('plain text [[[', 2)).toBe(true);
  });
});

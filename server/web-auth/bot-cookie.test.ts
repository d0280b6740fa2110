import { describe, expect, it } from 'vitest';
import { isExemptFromBotCheck, isValidBotPass, signBotPass } from './bot-cookie';

const SECRET = 'x'.repeat(64);

describe('bot check pass cookie', () => {
  it('accepts its own pass until it expires', () => {
    const now = Date.now();
    const pass = signBotPass(SECRET, 3600, now);
    expect(isValidBotPass(SECRET, pass.value, now)).toBe(true);
    expect(isValidBotPass(SECRET, pass.value, now + 3600 * 1000 + 1)).toBe(false);
  });

  it('refuses another secret, a changed expiry and garbage', () => {
    const pass = signBotPass(SECRET, 3600);
    expect(isValidBotPass('y'.repeat(64), pass.value)).toBe(false);
    const [expires, mac] = pass.value.split('.');
    expect(isValidBotPass(SECRET, `${Number(expires) + 1000}.${mac}`)).toBe(false);
    for (const value of [undefined, '', 'abc', `${expires}.`, `${expires}.${mac}x`])
      expect(isValidBotPass(SECRET, value)).toBe(false);
  });

  it('never applies to the API, the docs, the check itself or assets', () => {
    for (const path of [
      '/api',
      '/api/v1/health',
      '/api/trpc/x',
      '/api/auth/session',
      '/docs',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/v1/mcp',
      '/bot-check',
      '/bot-check/verify',
      '/_next/static/a.js',
      '/favicon.svg',
      '/.well-known/agent-card.json',
      '/.well-known/anything',
    ]) {
      expect(isExemptFromBotCheck(path), path).toBe(true);
    }
    for (const path of ['/', '/agents', '/agents/x', '/me', '/admin', '/apiary', '/docs2', '/well-known/agent-card.json'])
      expect(isExemptFromBotCheck(path), path).toBe(false);
  });
});

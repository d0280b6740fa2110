import { expect, test } from '@playwright/test';
import { openPage } from './helpers';

test.describe('bot check', () => {
  test('a client without a solution gets no page, only the check', async ({ request }) => {
    for (const path of ['/', '/agents', '/me', '/admin']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(303);
      expect(response.headers().location).toContain(`/bot-check?next=${encodeURIComponent(path)}`);
    }
    // A forged or wrong solution earns no pass.
    for (const payload of [
      '',
      'not base64 json',
      Buffer.from(JSON.stringify({ challenge: { parameters: {} }, solution: { counter: 1 } })).toString('base64'),
    ]) {
      const verify = await request.post('/bot-check/verify', { data: { payload } });
      expect(verify.status()).toBe(400);
      expect(verify.headers()['set-cookie']).toBeUndefined();
    }
    // A made-up cookie is no pass either.
    const forged = await request.get('/agents', {
      maxRedirects: 0,
      headers: { cookie: 'vs_human=99999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(forged.status()).toBe(303);
  });

  test('the API is never challenged', async ({ request }) => {
    for (const path of [
      '/api/v1/health',
      '/api/stats',
      '/api/agents',
      '/api/v1/agents',
      '/api/openapi.json',
      '/api/trpc/stats.platform',
    ]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(200);
      expect(response.headers()['content-type'], path).toContain('application/json');
    }
    // Unknown paths of the Next-served API prefixes answer JSON 404 too, never a page or the check.
    for (const path of ['/api/trpc/nope', '/api/auth/nope']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(404);
      expect(response.headers()['content-type'], path).toContain('application/json');
    }
    const docs = await request.get('/docs', { maxRedirects: 0 });
    expect(docs.status()).toBe(200);
  });

  test('a browser solves it once and keeps a signed pass', async ({ page, context }) => {
    await page.goto('/agents?tier=pro');
    await expect(page).toHaveURL(/\/bot-check\?next=/);
    await expect(page.locator('h1')).toHaveText('Checking your browser');
    await page.waitForURL((url) => url.pathname === '/agents', { timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get('tier')).toBe('pro');
    const pass = (await context.cookies()).find((cookie) => cookie.name === 'vs_human');
    expect(pass?.httpOnly).toBe(true);
    await openPage(page, '/graph');
    await expect(page).toHaveURL(/\/graph/);
  });
});

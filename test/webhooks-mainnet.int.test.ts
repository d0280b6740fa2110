import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDelivery, webhookSettings } from '../server/webhooks/deliver-webhooks';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// Webhook URLs on mainnet with the address guard on (ALLOW_PRIVATE_URLS=false): https only, no
// private targets at registration, and the delivery client refuses them again at connect time.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ SERVICE_NETWORK: 'mainnet', ALLOW_PRIVATE_URLS: 'false' });
});
afterAll(async () => {
  await app.close();
});

describe('webhook URLs on mainnet', () => {
  it('refuses http and private or local targets; accepts a public https URL', async () => {
    const session = await signIn(app, newWallet());
    const post = (url: string) => app.post('/api/v1/webhooks', { url, events: ['agent.registered'] }, { token: session.token });
    const http = await post('http://example.com/hook');
    expect(http.status).toBe(400);
    expect(http.body.details.fields.url).toMatch(/https/);
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
    ]) {
      expect((await post(url)).status, url).toBe(400);
    }
    expect(
      (await app.post('/api/webhooks', { url: 'https://127.0.0.1/x', events: ['agent.registered'] }, { token: session.token }))
        .status,
    ).toBe(400);
    expect((await post('https://example.com/hook')).status).toBe(201);
  });

  it('the delivery client refuses a private address at connect time', async () => {
    const attempt = await sendDelivery(
      'http://127.0.0.1:9/hook',
      { id: 1n, name: 'agent.registered', data: {}, audience: [], createdAt: new Date() },
      'secret-secret-secret',
      webhookSettings(app.runtime),
    );
    expect(attempt.ok).toBe(false);
    expect(attempt.error).toMatch(/blocked/);
  });
});

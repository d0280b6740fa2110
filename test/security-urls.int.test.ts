// Regression for the probe's NAT64 invoke_url (security issue, item 8): IPv6 forms that embed a private
// IPv4 address are refused when saved. Its own file: it needs a runtime without ALLOW_PRIVATE_URLS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ALLOW_PRIVATE_URLS: 'false', SERVICE_NETWORK: 'mainnet' });
});
afterAll(() => app.close());

describe('invoke_url address policy', () => {
  it('refuses invoke_url forms that embed a private IPv4 address (NAT64, 6to4, Teredo) when saved', async () => {
    const { token } = await signIn(app, newWallet());
    const agentId = (await app.post('/api/v1/agents', { agent_name: 'Strict' }, { token })).body.agent_id;
    for (const url of [
      'https://[64:ff9b:1::7f00:1]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:a00:1::1]/',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'https://[::ffff:0:7f00:1]/',
    ]) {
      const response = await app.request('PATCH', `/api/v1/agents/${agentId}`, { token, body: { invoke_url: url } });
      expect(response.status, url).toBe(400);
      expect(response.body.details.fields.invoke_url).toBeDefined();
    }
    const ok = await app.request('PATCH', `/api/v1/agents/${agentId}`, {
      token,
      body: { invoke_url: 'https://[2606:4700::1111]/' },
    });
    expect(ok.status).toBe(200);
  });
});

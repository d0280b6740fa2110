import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress, isLocalHostname } from './address-policy';
import { checkOutboundUrl } from './check-url';
import { OutboundError, outboundRequest } from './outbound';

// URLs that must never be reached (ARCHITECTURE.md: SSRF guards on every outbound URL).
const BLOCKED_URLS = [
  'http://127.0.0.1/',
  'http://127.1.2.3:8080/x',
  'http://0.0.0.0/',
  'http://0/',
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[0:0:0:0:0:ffff:a00:1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[2002:7f00:1::]/',
  'http://[2002:a00:1::1]/', // 6to4 of 10.0.0.1
  'http://[64:ff9b:1::7f00:1]/', // local-use NAT64
  'http://[64:ff9b:1:ffff::808:808]/', // local-use NAT64, whatever it embeds
  'http://[64:ff9b:0:0:0:0:a9fe:a9fe]/', // NAT64 of 169.254.169.254, long form
  'http://[64:ff9b::192.168.0.1]/', // NAT64, dotted
  'http://[::ffff:0:7f00:1]/', // IPv4-translated
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', // Teredo
  'http://[2001::7f00:1]/', // Teredo prefix
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.0.1/',
  'http://10.0.0.1/',
  'http://10.255.255.255/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://192.168.0.1/',
  'http://192.168.255.255/',
  'http://100.64.0.1/',
  'http://100.127.255.255/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://2130706433/', // decimal 127.0.0.1
  'http://017700000001/', // octal 127.0.0.1
  'http://0177.0.0.1/', // octal first octet
  'http://0x7f.0.0.1/', // hex first octet
  'http://0x7f000001/', // hex whole
  'http://127.1/', // short form
  'http://3232235521/', // decimal 192.168.0.1
  'http://0251.0376.0251.0376/', // octal 169.254.169.254
  'http://224.0.0.1/',
  'http://240.0.0.1/',
  'http://255.255.255.255/',
  'http://198.18.0.1/',
  'http://192.0.2.1/',
  'http://localhost/',
  'http://LOCALHOST./',
  'http://api.localhost/',
  'http://metadata.google.internal/',
  'http://router.local/',
  'http://intranet/',
];

const PUBLIC_ADDRESSES = [
  '8.8.8.8',
  '1.1.1.1',
  '104.16.0.1',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700::1111',
  '2001:4860:4860::8888',
  '64:ff9b::808:808', // NAT64 of 8.8.8.8
  '2002:808:808::1', // 6to4 of 8.8.8.8
];

// Resolved addresses (DNS answers) that embed a private IPv4 address, refused at connect time.
const BLOCKED_ANSWERS = [
  '64:ff9b::7f00:1',
  '64:ff9b:1::7f00:1',
  '64:ff9b:1::a00:1',
  '2002:7f00:1::1',
  '2002:c0a8:1::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '::ffff:127.0.0.1',
  '::ffff:0:a9fe:a9fe',
];

describe('address policy', () => {
  it('has a corpus of at least 40 blocked URLs', () => {
    expect(BLOCKED_URLS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(BLOCKED_URLS)('refuses %s when it is saved', (url) => {
    expect(() => checkOutboundUrl(url, { allowHttp: true, allowPrivate: false }, 'url')).toThrow();
  });

  it.each(BLOCKED_URLS)('refuses %s at connect time', async (url) => {
    const attempt = outboundRequest(url, {
      timeoutMs: 2000,
      allowPrivate: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'blocked_address' });
  });

  it.each(BLOCKED_ANSWERS)('refuses a name that resolves to %s at connect time', async (address) => {
    expect(isBlockedAddress(address)).toBe(true);
    const attempt = outboundRequest('https://agent.example.com/', {
      timeoutMs: 2000,
      allowPrivate: false,
      resolve: async () => [{ address, family: 6 }],
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'blocked_address' });
  });

  it.each(PUBLIC_ADDRESSES)('allows the public address %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('treats non-IPs as blocked and knows local names', () => {
    expect(isBlockedAddress('not-an-ip')).toBe(true);
    expect(isLocalHostname('agent.example.com')).toBe(false);
    expect(isLocalHostname('printer.home.arpa')).toBe(true);
  });

  it('requires https unless plain http is allowed, and refuses credentials in URLs', () => {
    expect(() => checkOutboundUrl('http://agent.example.com/', { allowHttp: false, allowPrivate: false }, 'url')).toThrow(
      'https',
    );
    expect(() => checkOutboundUrl('ftp://agent.example.com/', { allowHttp: true, allowPrivate: false }, 'url')).toThrow();
    expect(() =>
      checkOutboundUrl('https://user:pw@agent.example.com/', { allowHttp: false, allowPrivate: false }, 'url'),
    ).toThrow('credentials');
    expect(checkOutboundUrl('https://agent.example.com/x', { allowHttp: false, allowPrivate: false }, 'url').hostname).toBe(
      'agent.example.com',
    );
  });
});

describe('outbound client', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return response.end();
      }
      if (request.url === '/big') {
        response.writeHead(200);
        return response.end(Buffer.alloc(3000, 97));
      }
      if (request.url === '/hang') return;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('refuses a public-looking hostname that resolves to loopback (DNS checked at connect time)', async () => {
    const attempt = outboundRequest(`http://agent.example.com:${port}/`, {
      timeoutMs: 2000,
      allowPrivate: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'blocked_address' });
  });

  it('refuses a name whose answers mix public and private addresses', async () => {
    const attempt = outboundRequest(`http://mixed.example.com:${port}/`, {
      timeoutMs: 2000,
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'blocked_address' });
  });

  it('connects to the resolved address when private targets are allowed', async () => {
    const response = await outboundRequest(`http://agent.example.com:${port}/`, {
      timeoutMs: 2000,
      allowPrivate: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toEqual({ ok: true });
  });

  it('never follows a redirect, even to a metadata address', async () => {
    const response = await outboundRequest(`http://127.0.0.1:${port}/redirect`, { timeoutMs: 2000, allowPrivate: true });
    expect(response.status).toBe(302);
  });

  it('caps the response size', async () => {
    const attempt = outboundRequest(`http://127.0.0.1:${port}/big`, {
      timeoutMs: 2000,
      allowPrivate: true,
      maxResponseBytes: 1000,
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'too_large' });
  });

  it('caps the time', async () => {
    const attempt = outboundRequest(`http://127.0.0.1:${port}/hang`, { timeoutMs: 200, allowPrivate: true });
    await expect(attempt).rejects.toBeInstanceOf(OutboundError);
    await expect(outboundRequest(`http://127.0.0.1:${port}/hang`, { timeoutMs: 200, allowPrivate: true })).rejects.toMatchObject({
      kind: 'timeout',
    });
  });
});

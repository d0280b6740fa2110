import { createServer, type Server } from 'node:http';
import canonicalize from 'canonicalize';
import { exportJWK, FlattenedSign, generateKeyPair } from 'jose';

export type ForeignHost = Awaited<ReturnType<typeof startForeignHost>>;

/**
 * Another host serving A2A documents on a loopback port: /.well-known/agent-card.json and /jwks.
 * Its card is signed with its own ES256 key. `requests` records every path asked for.
 */
export async function startForeignHost() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'foreign-1', alg: 'ES256', use: 'sig' };
  const requests: string[] = [];
  const documents = new Map<string, unknown>();
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const body = documents.get(request.url ?? '');
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  documents.set('/jwks', { keys: [jwk] });
  const sign = async (card: Record<string, unknown>, header: Record<string, unknown> = {}) => {
    const jws = await new FlattenedSign(new TextEncoder().encode(canonicalize(card)!))
      .setProtectedHeader({ alg: 'ES256', typ: 'JOSE', kid: 'foreign-1', jku: `${origin}/jwks`, ...header })
      .sign(privateKey);
    return { ...card, signatures: [{ protected: jws.protected!, signature: jws.signature }] };
  };
  const unsignedCard = (extra: Record<string, unknown> = {}) => ({
    name: 'Foreign Agent',
    description: 'Lives on another host',
    supportedInterfaces: [{ url: `${origin}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    provider: { organization: 'Elsewhere Inc.', url: origin },
    version: '2.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'chat', name: 'Chat', description: 'Talks', tags: ['chat'] }],
    ...extra,
  });
  return {
    origin,
    requests,
    documents,
    sign,
    unsignedCard,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

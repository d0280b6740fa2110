// Signed A2A v1.0 agent cards (issue 24 items 5 and 6): the cards' shape against a JSON Schema written
// from the specification, their JWS checked here with jose and an RFC 8785 library, tampering, the
// platform's well-known card, and POST /api/v1/verify/agent-card (valid, invalid, tampered; SSRF in
// a2a-ssrf.int.test.ts, which needs a runtime without ALLOW_PRIVATE_URLS).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import canonicalize from 'canonicalize';
import { base64url, createLocalJWKSet, decodeProtectedHeader, flattenedVerify, type JSONWebKeySet } from 'jose';
import { createRequire } from 'node:module';
import { getAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCardJsonSchema } from './a2a-agent-card.schema';
import { startForeignHost, type ForeignHost } from './a2a-foreign-host';
import { useTestChain } from './chain';
import type { TestApp } from './harness';
import { fund } from './money';
import { newWallet, signIn } from './wallets';

const BASE = 'http://localhost:3000'; // PUBLIC_BASE_URL of the test apps (the default)
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validateCard = ajv.compile(agentCardJsonSchema);

// The app runs on a test chain (snapshot and revert around each test) for the ERC-8004 registry reads.
const { app, chain } = useTestChain({ app: {} });
let foreign: ForeignHost;
beforeAll(async () => {
  foreign = await startForeignHost();
});
afterAll(() => foreign.close());

const invokeSchema = {
  type: 'object',
  required: ['question'],
  properties: { question: { type: 'string', maxLength: 200 } },
  additionalProperties: false,
};

/** An agent of a fresh owner, made callable (its invoke_url is never fetched here). */
async function callableAgent(on: TestApp = app, patch: Record<string, unknown> = {}) {
  const owner = newWallet();
  const session = await signIn(on, owner);
  const created = await on.post('/api/v1/agents', { agent_name: 'Card Agent' }, { token: session.token });
  expect(created.status, created.text).toBe(201);
  const id = created.body.agent_id as string;
  const patched = await on.request('PATCH', `/api/v1/agents/${id}`, {
    token: session.token,
    body: {
      bio: 'Answers questions',
      is_callable: true,
      invoke_url: 'https://agent.example/hook',
      invoke_schema: invokeSchema,
      price_claw_per_call: 1.5,
      ...patch,
    },
  });
  expect(patched.status, patched.text).toBe(200);
  return { owner, id, token: session.token, handle: created.body.handle as string };
}

/** Verifies a card's first signature the way a third party would: jose, canonicalize, the jku JWKS. */
async function verifyWithJose(card: any, jwks: JSONWebKeySet): Promise<boolean> {
  const { signatures, ...unsigned } = card;
  const payload = canonicalize(unsigned)!;
  try {
    await flattenedVerify(
      { protected: signatures[0].protected, signature: signatures[0].signature, payload: base64url.encode(payload) },
      createLocalJWKSet(jwks),
    );
    return true;
  } catch {
    return false;
  }
}

async function routerJwks(on: TestApp = app): Promise<JSONWebKeySet> {
  const response = await on.get('/api/v1/router/jwks');
  expect(response.status).toBe(200);
  return response.body;
}

// A stand-in for the ERC-8004 IdentityRegistry's read side, compiled here with solc: an ERC-721
// tokenURI(agentId) that reverts for an unregistered agent (the verifier reads nothing else).
const AGENT_URI_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract AgentUriRegistry {
  mapping(uint256 => string) private uris;
  function setAgentURI(uint256 agentId, string calldata uri) external { uris[agentId] = uri; }
  function tokenURI(uint256 agentId) external view returns (string memory) {
    require(bytes(uris[agentId]).length > 0, "ERC721NonexistentToken");
    return uris[agentId];
  }
}`;
const agentUriAbi = [
  {
    type: 'function',
    name: 'setAgentURI',
    stateMutability: 'nonpayable',
    inputs: [{ type: 'uint256' }, { type: 'string' }],
    outputs: [],
  },
] as const;

async function deployAgentUriRegistry(): Promise<Address> {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'AgentUriRegistry.sol': { content: AGENT_URI_SOURCE } },
        settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
      }),
    ),
  );
  const bytecode = `0x${output.contracts['AgentUriRegistry.sol'].AgentUriRegistry.evm.bytecode.object}` as Hex;
  const hash = await chain.deployer.deployContract({
    abi: [],
    bytecode,
    account: chain.deployer.account!,
    chain: chain.deployer.chain,
  });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  return getAddress(receipt.contractAddress!);
}

async function setAgentUri(registry: Address, agentId: bigint, uri: string): Promise<void> {
  const hash = await chain.deployer.writeContract({
    address: registry,
    abi: agentUriAbi,
    functionName: 'setAgentURI',
    args: [agentId, uri],
    account: chain.deployer.account!,
    chain: chain.deployer.chain,
    gas: 500_000n,
  });
  await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

describe('GET /api/v1/agents/{id}/agent-card.json', () => {
  it('is an A2A v1.0 AgentCard: the router’s invoke URL, bearer security, skills, the owner as provider', async () => {
    const agent = await callableAgent();
    // A published skill of the agent shows as a card skill.
    await fund(agent.owner.address, 1_000_000);
    const skill = await app.post(
      '/api/v1/skills',
      {
        name: `Card skill ${Math.random().toString(36).slice(2, 8)}`,
        summary: 'Summarises documents',
        description: 'Long description',
        category: 'general',
        tags: ['docs'],
        integration_type: 'api',
        integration_payload: { endpoints: [{ method: 'GET', url: 'https://example.com/api' }] },
      },
      { token: agent.token },
    );
    expect(skill.status, skill.text).toBe(201);

    const response = await app.get(`/api/v1/agents/${agent.id}/agent-card.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(response.headers.get('etag')).toBeTruthy();
    const card = response.body;
    expect(validateCard(card), JSON.stringify(validateCard.errors)).toBe(true);
    expect(card.name).toBe('Card Agent');
    expect(card.description).toBe('Answers questions');
    expect(card.supportedInterfaces[0]).toEqual({
      url: `${BASE}/api/v1/agents/${agent.id}/invoke`,
      protocolBinding: 'urn:vouchsafe:binding:invoke:v1',
      protocolVersion: '1.0',
    });
    expect(card.provider.organization.toLowerCase()).toBe(`eip155:8453:${agent.owner.address.toLowerCase()}`);
    expect(card.securitySchemes.bearer).toEqual({ httpAuthSecurityScheme: expect.objectContaining({ scheme: 'Bearer' }) });
    expect(card.securityRequirements).toContainEqual({ schemes: { bearer: { list: ['agents.invoke'] } } });
    const invoke = card.skills.find((s: any) => s.id === 'invoke');
    expect(invoke.description).toContain(JSON.stringify(invokeSchema));
    const extension = card.capabilities.extensions.find((e: any) => e.uri === 'urn:vouchsafe:a2a:invoke:v1');
    expect(extension.params).toMatchObject({ agentId: agent.id, invokeSchema, priceClawPerCall: 1.5 });
    expect(card.skills).toContainEqual({
      id: skill.body.id,
      name: skill.body.name,
      description: 'Summarises documents',
      tags: ['general', 'docs'],
    });
    // Served by handle too, the same card.
    const byHandle = await app.get(`/api/v1/agents/${agent.handle}/agent-card.json`);
    expect(byHandle.body.supportedInterfaces).toEqual(card.supportedInterfaces);
  });

  it('carries a JWS over the RFC 8785 canonical card that jose verifies with the router JWKS (kid, jku)', async () => {
    const agent = await callableAgent();
    const card = (await app.get(`/api/v1/agents/${agent.id}/agent-card.json`)).body;
    const jwks = await routerJwks();
    expect(card.signatures).toHaveLength(1);
    const header = decodeProtectedHeader(card.signatures[0]);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'JOSE', jku: `${BASE}/api/v1/router/jwks` });
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
    expect(await verifyWithJose(card, jwks)).toBe(true);
    // The payload is detached: nothing but the header and the signature is in the card.
    expect(Object.keys(card.signatures[0]).sort()).toEqual(['protected', 'signature']);
  });

  it('any tampered field breaks the signature', async () => {
    const agent = await callableAgent();
    const card = (await app.get(`/api/v1/agents/${agent.id}/agent-card.json`)).body;
    const jwks = await routerJwks();
    const tamperings: [string, (c: any) => void][] = [
      ['name', (c) => (c.name += '!')],
      ['description', (c) => (c.description = 'Something else')],
      ['interface url', (c) => (c.supportedInterfaces[0].url = 'https://evil.example/invoke')],
      ['protocolVersion', (c) => (c.supportedInterfaces[0].protocolVersion = '0.3')],
      ['provider', (c) => (c.provider.organization = `eip155:8453:${newWallet().address}`)],
      ['version', (c) => (c.version = '9.9.9')],
      ['capabilities', (c) => (c.capabilities.streaming = true)],
      ['extension params', (c) => (c.capabilities.extensions[0].params.priceClawPerCall = 0)],
      ['securitySchemes', (c) => delete c.securitySchemes.api_key],
      ['securityRequirements', (c) => (c.securityRequirements = [])],
      ['input modes', (c) => c.defaultInputModes.push('text/plain')],
      ['skill', (c) => (c.skills[0].description = 'Free calls')],
      ['an added field', (c) => (c.iconUrl = 'https://evil.example/icon.png')],
      ['a removed field', (c) => delete c.documentationUrl],
      [
        'the signature',
        (c) => (c.signatures[0].signature = c.signatures[0].signature.replace(/^./, (x: string) => (x === 'A' ? 'B' : 'A'))),
      ],
    ];
    for (const [label, tamper] of tamperings) {
      const copy = structuredClone(card);
      tamper(copy);
      expect(await verifyWithJose(copy, jwks), label).toBe(false);
    }
    // Key order and whitespace are not tampering: the canonical form is the same.
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(card).reverse())));
    expect(await verifyWithJose(reordered, jwks)).toBe(true);
  });

  it('answers 404 for an unknown, a non-callable and a paused agent', async () => {
    expect((await app.get(`/api/v1/agents/${crypto.randomUUID()}/agent-card.json`)).status).toBe(404);
    const owner = newWallet();
    const session = await signIn(app, owner);
    const created = await app.post('/api/v1/agents', { agent_name: 'Quiet' }, { token: session.token });
    const notCallable = await app.get(`/api/v1/agents/${created.body.agent_id}/agent-card.json`);
    expect(notCallable.status).toBe(404);
    expect(notCallable.body.code).toBe('not_found');
    const paused = await callableAgent();
    await app.request('PATCH', `/api/v1/agents/${paused.id}`, { token: paused.token, body: { status: 'paused' } });
    expect((await app.get(`/api/v1/agents/${paused.id}/agent-card.json`)).status).toBe(404);
  });
});

describe('GET /.well-known/agent-card.json', () => {
  it('is the platform’s signed card', async () => {
    const response = await app.get('/.well-known/agent-card.json', { contract: false });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const card = response.body;
    expect(validateCard(card), JSON.stringify(validateCard.errors)).toBe(true);
    expect(card.name).toBe('Vouchsafe');
    expect(card.skills.map((s: any) => s.id)).toContain('verify-agent-card');
    expect(decodeProtectedHeader(card.signatures[0]).jku).toBe(`${BASE}/api/v1/router/jwks`);
    expect(await verifyWithJose(card, await routerJwks())).toBe(true);
  });
});

describe('POST /api/v1/verify/agent-card', () => {
  it('finds this instance’s agent card valid, sent inline or by url', async () => {
    const agent = await callableAgent();
    const card = (await app.get(`/api/v1/agents/${agent.id}/agent-card.json`)).body;
    const inline = await app.post('/api/v1/verify/agent-card', { card });
    expect(inline.status).toBe(200);
    expect(inline.body).toMatchObject({
      valid: true,
      reasons: [],
      checked: {
        card_url: null,
        shape: { ok: true },
        signature: { ok: true, alg: 'EdDSA', jku: `${BASE}/api/v1/router/jwks` },
        domain: { ok: true, origin: BASE, served_at: `${BASE}/api/v1/agents/${agent.id}/agent-card.json` },
        erc8004: { ok: true, registrations: [] },
      },
    });
    const byUrl = await app.post('/api/v1/verify/agent-card', { url: `${BASE}/api/v1/agents/${agent.id}/agent-card.json` });
    expect(byUrl.body).toMatchObject({ valid: true, reasons: [] });
    // The origin the caller reached this instance at is this instance too (read from its records, not fetched).
    const reached = await app.post('/api/v1/verify/agent-card', {
      url: `http://vouchsafe.test/api/v1/agents/${agent.id}/agent-card.json`,
    });
    expect(reached.body).toMatchObject({ valid: true, checked: { domain: { ok: true } } });
    const platform = await app.post('/api/v1/verify/agent-card', { url: `${BASE}/.well-known/agent-card.json` });
    expect(platform.body).toMatchObject({
      valid: true,
      checked: { domain: { served_at: `${BASE}/.well-known/agent-card.json` } },
    });
  });

  it('refuses a tampered, an unsigned and a malformed card with reasons', async () => {
    const agent = await callableAgent();
    const card = (await app.get(`/api/v1/agents/${agent.id}/agent-card.json`)).body;
    const tampered = {
      ...card,
      supportedInterfaces: [{ ...card.supportedInterfaces[0], url: `${BASE}/api/v1/agents/${crypto.randomUUID()}/invoke` }],
    };
    const answer = await app.post('/api/v1/verify/agent-card', { card: tampered });
    expect(answer.body.valid).toBe(false);
    expect(answer.body.checked.signature.ok).toBe(false);
    expect(answer.body.reasons.some((r: string) => r.startsWith('bad_signature:'))).toBe(true);
    expect(answer.body.reasons.some((r: string) => r.startsWith('domain_mismatch:'))).toBe(true);

    const { signatures: _, ...unsigned } = card;
    const bare = await app.post('/api/v1/verify/agent-card', { card: unsigned });
    expect(bare.body.valid).toBe(false);
    expect(bare.body.checked.signature.detail).toMatch(/no signatures/);
    expect(bare.body.checked.domain.ok).toBe(true);

    const malformed = await app.post('/api/v1/verify/agent-card', { card: { name: 5 } });
    expect(malformed.status).toBe(200);
    expect(malformed.body.valid).toBe(false);
    expect(malformed.body.reasons.some((r: string) => r.startsWith('invalid_shape:'))).toBe(true);

    // A card whose agent is no longer callable is no longer served by its domain.
    await app.request('PATCH', `/api/v1/agents/${agent.id}`, { token: agent.token, body: { is_callable: false } });
    const gone = await app.post('/api/v1/verify/agent-card', { card });
    expect(gone.body).toMatchObject({ valid: false, checked: { signature: { ok: true }, domain: { ok: false } } });
  });

  it('verifies another host’s card against its jku and its well-known URL', async () => {
    const card = await foreign.sign(foreign.unsignedCard());
    foreign.documents.set('/.well-known/agent-card.json', card);
    const answer = await app.post('/api/v1/verify/agent-card', { card });
    expect(answer.body, JSON.stringify(answer.body)).toMatchObject({
      valid: true,
      checked: {
        signature: { ok: true, kid: 'foreign-1', alg: 'ES256' },
        domain: { ok: true, origin: foreign.origin, served_at: `${foreign.origin}/.well-known/agent-card.json` },
      },
    });
    // The host serves a different card: the domain check fails, the signature still holds.
    foreign.documents.set('/.well-known/agent-card.json', await foreign.sign(foreign.unsignedCard({ version: '3.0.0' })));
    const moved = await app.post('/api/v1/verify/agent-card', { card });
    expect(moved.body).toMatchObject({ valid: false, checked: { signature: { ok: true }, domain: { ok: false } } });
    // A kid the JWKS does not list.
    const unknownKid = await foreign.sign(foreign.unsignedCard(), { kid: 'other' });
    const wrongKey = await app.post('/api/v1/verify/agent-card', { card: unknownKid });
    expect(wrongKey.body.checked.signature).toMatchObject({ ok: false, detail: expect.stringContaining('no key other') });
  });

  it('answers a reason, not a 500, for an ERC-8004 registration it cannot confirm', async () => {
    const registry = 'eip155:8453:0x8004A169FB4a3325136EB29fA0ceB6D2e539a432';
    const card = await foreign.sign(
      foreign.unsignedCard({
        capabilities: {
          extensions: [
            {
              uri: 'https://eips.ethereum.org/EIPS/eip-8004',
              params: { registrations: [{ agentId: 7, agentRegistry: registry }] },
            },
          ],
        },
      }),
    );
    foreign.documents.set('/.well-known/agent-card.json', card);
    const answer = await app.post('/api/v1/verify/agent-card', { card });
    expect(answer.status).toBe(200);
    expect(answer.body.valid).toBe(false);
    expect(answer.body.checked.signature.ok).toBe(true);
    expect(answer.body.checked.erc8004.registrations).toEqual([
      expect.objectContaining({
        agent_registry: registry,
        agent_id: '7',
        ok: false,
        token_uri: null,
        detail: expect.stringContaining('no contract'),
      }),
    ]);
    expect(answer.body.reasons.some((r: string) => r.startsWith('erc8004_mismatch:'))).toBe(true);
    // A registry on another chain is not read.
    const elsewhere = await foreign.sign(
      foreign.unsignedCard({
        registrations: [{ agentId: 7, agentRegistry: 'eip155:1:0x8004A169FB4a3325136EB29fA0ceB6D2e539a432' }],
      }),
    );
    const other = await app.post('/api/v1/verify/agent-card', { card: elsewhere });
    expect(other.body.checked.erc8004.registrations[0].detail).toMatch(/chain 1; this instance reads chain 8453/);
  });

  it('follows an ERC-8004 registration’s tokenURI (agentURI) on the chain back to the card', async () => {
    const registry = await deployAgentUriRegistry();
    const agentRegistry = `eip155:8453:${registry}`;
    const cardAt = `${foreign.origin}/.well-known/agent-card.json`;
    const card = await foreign.sign(
      foreign.unsignedCard({
        capabilities: {
          extensions: [
            {
              uri: 'https://eips.ethereum.org/EIPS/eip-8004',
              params: {
                registrations: [
                  { agentId: 1, agentRegistry },
                  { agentId: 2, agentRegistry },
                ],
              },
            },
          ],
        },
      }),
    );
    foreign.documents.set('/.well-known/agent-card.json', card);
    // #1: an https registration file that lists this card as its A2A service and this registration.
    foreign.documents.set('/registration.json', {
      type: 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1',
      name: 'Foreign Agent',
      services: [{ name: 'A2A', endpoint: cardAt, version: '1.0' }],
      registrations: [{ agentId: 1, agentRegistry }],
    });
    await setAgentUri(registry, 1n, `${foreign.origin}/registration.json`);
    // #2: not registered at all (tokenURI reverts).
    let answer = await app.post('/api/v1/verify/agent-card', { card });
    expect(answer.body.checked.erc8004.registrations).toEqual([
      {
        agent_registry: agentRegistry,
        agent_id: '1',
        ok: true,
        token_uri: `${foreign.origin}/registration.json`,
        detail: expect.any(String),
      },
      expect.objectContaining({ agent_id: '2', ok: false, token_uri: null, detail: expect.stringContaining('reverted') }),
    ]);
    expect(answer.body.valid).toBe(false);
    // #2's agentURI is the card itself: it points back; the whole card is valid.
    await setAgentUri(registry, 2n, cardAt);
    answer = await app.post('/api/v1/verify/agent-card', { card });
    expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ valid: true, checked: { erc8004: { ok: true } } });
    // #2's agentURI is a data: registration file naming another card: it does not point back.
    const elsewhere = {
      services: [{ name: 'A2A', endpoint: 'https://other.example/.well-known/agent-card.json' }],
      registrations: [{ agentId: 2, agentRegistry }],
    };
    await setAgentUri(registry, 2n, `data:application/json;base64,${Buffer.from(JSON.stringify(elsewhere)).toString('base64')}`);
    answer = await app.post('/api/v1/verify/agent-card', { card });
    expect(answer.body.valid).toBe(false);
    expect(answer.body.checked.erc8004.registrations[1]).toMatchObject({
      ok: false,
      detail: expect.stringContaining('no A2A service'),
    });
  });

  it('refuses bad input with 400 and a body over 256 KiB with 413', async () => {
    for (const body of [{}, { card: 'x' }, { card: [] }, { url: 'not a url' }, { url: 5 }]) {
      const answer = await app.post('/api/v1/verify/agent-card', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_request');
    }
    const big = await app.post('/api/v1/verify/agent-card', { card: { name: 'x'.repeat(300 * 1024) } });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
    // A card of 100 KiB (beyond the default 64 KiB limit) is read.
    const large = await app.post('/api/v1/verify/agent-card', { card: { name: 'x'.repeat(100 * 1024) } });
    expect(large.status).toBe(200);
    expect(large.body.valid).toBe(false);
  });
});

import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import canonicalize from 'canonicalize';
import { base64url, compactVerify, createLocalJWKSet, decodeProtectedHeader, flattenedVerify, type JSONWebKeySet } from 'jose';
import { keccak256, parseEther, parseEventLogs, toHex, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifact } from '../server/chain/artifacts';
import { database, db } from '../server/core/db';
import { indexErc8004 } from '../server/erc8004/indexer';
import { agentCardJsonSchema } from './a2a-agent-card.schema';
import { useTestChain } from './chain';
import { fund } from './money';
import { startTarget } from './targets';
import { signIn } from './wallets';

// ERC-8004 on the real devnet (docs/erc8004.md): registries, link and unlink, the indexer, feedback
// weighting, the registration file, the verifier and the signed feedback file.

const { chain, app } = useTestChain({ app: {}, snapshots: false });
let target: Awaited<ReturnType<typeof startTarget>>;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(() => target.close());

const identity = () => chain.deployment.erc8004.identityRegistry;
const reputation = () => chain.deployment.erc8004.reputationRegistry;
const registryRef = () => `eip155:8453:${identity()}`;

async function user(name = 'User') {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await chain.setEth(account.address, parseEther('10'));
  const session = await signIn(app, account, { agentName: name });
  const created = await app.post('/api/v1/agents', { agent_name: name }, { token: session.token });
  expect(created.status).toBeLessThan(300);
  return { key, address: account.address, token: session.token, agentId: created.body.agent_id as string };
}

async function send(key: Hex, to: Address, abiName: string, functionName: string, args: unknown[]) {
  const wallet = chain.wallet(key);
  const hash = await wallet.writeContract({
    address: to,
    abi: artifact(abiName).abi,
    functionName,
    args,
    gas: 2_000_000n,
    account: wallet.account!,
    chain: wallet.chain,
  });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  expect(receipt.status).toBe('success');
  return receipt;
}

/** The owner registers through the unsigned transaction the API answers, then links the new agentId. */
async function registerAndLink(owner: Awaited<ReturnType<typeof user>>) {
  const unsigned = await app.post(`/api/v1/agents/${owner.agentId}/erc8004/link`, {}, { token: owner.token });
  expect(unsigned.status).toBe(200);
  expect(unsigned.body).toMatchObject({ linked: false, transaction: { to: identity(), chain_id: 8453, value: '0' } });
  expect(unsigned.body.agent_uri).toMatch(new RegExp(`/api/v1/agents/${owner.agentId}/registration.json$`));
  const wallet = chain.wallet(owner.key);
  const hash = await wallet.sendTransaction({
    to: unsigned.body.transaction.to,
    data: unsigned.body.transaction.data,
    gas: 1_000_000n,
    account: wallet.account!,
    chain: wallet.chain,
  });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  const [registered] = parseEventLogs({
    abi: artifact('IdentityRegistry').abi as Abi,
    logs: receipt.logs,
    eventName: 'Registered',
  });
  const tokenId = (registered as unknown as { args: { agentId: bigint; agentURI: string } }).args;
  expect(tokenId.agentURI).toBe(unsigned.body.agent_uri);
  const linked = await app.post(
    `/api/v1/agents/${owner.agentId}/erc8004/link`,
    { erc8004_agent_id: tokenId.agentId.toString(), agent_registry: registryRef() },
    { token: owner.token },
  );
  expect(linked.status).toBe(200);
  expect(linked.body).toMatchObject({ linked: true, via: 'owner', erc8004: { agent_id: tokenId.agentId.toString() } });
  return tokenId.agentId;
}

async function callableAgent(owner: Awaited<ReturnType<typeof user>>, price = 2) {
  const patched = await app.request('PATCH', `/api/v1/agents/${owner.agentId}`, {
    token: owner.token,
    body: { is_callable: true, invoke_url: `${target.url}/echo`, price_claw_per_call: price },
  });
  expect(patched.status).toBe(200);
}

describe('ERC-8004', () => {
  it('serves a registration-v1 file that validates against the format, with registrations once linked', async () => {
    const schema = JSON.parse(readFileSync('docs/erc8004-registration-v1.schema.json', 'utf8'));
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const owner = await user('Registrant');
    await callableAgent(owner);
    const before = await app.get(`/api/v1/agents/${owner.agentId}/registration.json`);
    expect(before.status).toBe(200);
    expect(validate(before.body), JSON.stringify(validate.errors)).toBe(true);
    expect(before.body.type).toBe('https://eips.ethereum.org/EIPS/eip-8004#registration-v1');
    expect(before.body.registrations).toEqual([]);
    const names = before.body.services.map((s: { name: string }) => s.name);
    expect(names).toEqual(['web', 'MCP', 'A2A', 'invoke']);
    expect(before.body.services.find((s: { name: string }) => s.name === 'A2A').endpoint).toMatch(
      new RegExp(`/api/v1/agents/${owner.agentId}/agent-card.json$`),
    );
    const tokenId = await registerAndLink(owner);
    const after = await app.get(`/api/v1/agents/${owner.agentId}/registration.json`);
    expect(validate(after.body), JSON.stringify(validate.errors)).toBe(true);
    expect(after.body.registrations).toEqual([{ agentId: Number(tokenId), agentRegistry: registryRef() }]);
    // A file missing its type fails the schema (the check can fail).
    expect(validate({ ...after.body, type: undefined })).toBe(false);
    expect((await app.get('/api/v1/agents/no-such-agent-x/registration.json')).status).toBe(404);
  });

  it('links through register(agentURI), shows the link in both families, and unlinks with DELETE', async () => {
    const owner = await user('Linker');
    const tokenId = await registerAndLink(owner);
    const b = await app.get(`/api/v1/agents/${owner.agentId}`);
    expect(b.body.erc8004).toEqual({ agent_id: tokenId.toString(), agent_registry: registryRef() });
    const a = await app.get(`/api/agents/${owner.agentId}`);
    expect(a.status).toBe(200);
    expect(JSON.stringify(a.body)).toContain(`"agent_registry":"${registryRef()}"`);
    const removed = await app.request('DELETE', `/api/v1/agents/${owner.agentId}/erc8004/link`, { token: owner.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ linked: false, erc8004: null });
    expect((await app.get(`/api/v1/agents/${owner.agentId}`)).body.erc8004).toBeNull();
  });

  it('refuses a token the owner wallet does not own (403), unknown tokens and other registries (422), and non-owners (403)', async () => {
    const owner = await user('Honest');
    const other = await user('Other');
    const receipt = await send(other.key, identity(), 'IdentityRegistry', 'register', ['https://example.com/a.json']);
    const [registered] = parseEventLogs({
      abi: artifact('IdentityRegistry').abi as Abi,
      logs: receipt.logs,
      eventName: 'Registered',
    });
    const othersToken = (registered as unknown as { args: { agentId: bigint } }).args.agentId.toString();
    const path = `/api/v1/agents/${owner.agentId}/erc8004/link`;
    const notYours = await app.post(path, { erc8004_agent_id: othersToken }, { token: owner.token });
    expect(notYours.status).toBe(403);
    expect(notYours.body.code).toBe('forbidden');
    expect((await app.post(path, { erc8004_agent_id: '999999' }, { token: owner.token })).status).toBe(422);
    const wrongRegistry = await app.post(
      path,
      { erc8004_agent_id: othersToken, agent_registry: `eip155:8453:${reputation()}` },
      { token: owner.token },
    );
    expect(wrongRegistry.status).toBe(422);
    expect((await app.post(path, { erc8004_agent_id: 'abc' }, { token: owner.token })).status).toBe(400);
    // Another agent's owner cannot link (or unlink) this agent, even to its own token.
    expect((await app.post(path, { erc8004_agent_id: othersToken }, { token: other.token })).status).toBe(403);
    expect((await app.request('DELETE', path, { token: other.token })).status).toBe(403);
    expect(await db().erc8004Link.count({ where: { agentId: owner.agentId } })).toBe(0);
  });

  it('unlinks automatically when the identity NFT is transferred (indexer)', async () => {
    await indexErc8004(); // catch the cursor up before the link
    const owner = await user('Seller');
    const tokenId = await registerAndLink(owner);
    const buyer = privateKeyToAccount(generatePrivateKey()).address;
    await indexErc8004();
    expect(await db().erc8004Link.count({ where: { agentId: owner.agentId } })).toBe(1);
    await send(owner.key, identity(), 'IdentityRegistry', 'transferFrom', [owner.address, buyer, tokenId]);
    for (let i = 0; i < 3; i++) await indexErc8004();
    expect(await db().erc8004Link.count({ where: { agentId: owner.agentId } })).toBe(0);
    expect((await app.get(`/api/v1/agents/${owner.agentId}`)).body.erc8004).toBeNull();
  });

  it('indexes feedback; only reviewers with a paid call count toward trust; the signed feedback file verifies', async () => {
    await indexErc8004();
    const agentOwner = await user('Reviewed');
    await callableAgent(agentOwner, 2);
    const tokenId = await registerAndLink(agentOwner);
    const payer = await user('Payer');
    const stranger = await user('Stranger');
    await fund(payer.address, 10);
    const call = await app.post(`/api/v1/agents/${agentOwner.agentId}/invoke`, { q: 1 }, { token: payer.token });
    expect(call.status).toBe(200);
    const invocationId = call.body.invocation_id as string;

    // The signed off-chain feedback file for the paid call.
    const file = await app.get(`/api/v1/invocations/${invocationId}/feedback.json?value=90&tag1=starred`);
    expect(file.status).toBe(200);
    expect(file.body).toMatchObject({
      agentRegistry: registryRef(),
      agentId: Number(tokenId),
      clientAddress: `eip155:8453:${payer.address}`,
      value: 90,
      valueDecimals: 0,
      tag1: 'starred',
      proofOfPayment: { fromAddress: payer.address, invocationId, currency: 'CLAW', amount: '2' },
    });
    expect(file.headers.get('x-feedback-hash')).toBe(keccak256(toHex(file.text)));
    const jwks = await app.get('/api/v1/router/jwks');
    const { payload, protectedHeader } = await compactVerify(file.body.signature, createLocalJWKSet(jwks.body));
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', jku: expect.stringMatching(/\/api\/v1\/router\/jwks$/) });
    const { signature: _signature, ...unsigned } = file.body;
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual(unsigned);
    const tampered = file.body.signature.replace(/\.([^.]+)\./, (_: string, p: string) => `.${p.slice(0, -2)}AA.`);
    await expect(compactVerify(tampered, createLocalJWKSet(jwks.body))).rejects.toThrow();
    expect((await app.get(`/api/v1/invocations/00000000-0000-4000-8000-000000000000/feedback.json`)).status).toBe(404);

    // On chain: the payer rates 90 with the file; the stranger (no evidence) rates 10; the owner cannot rate itself.
    const feedbackUri = `${file.body.proofOfPayment.paymentRecord}?value=90&tag1=starred`;
    await send(payer.key, reputation(), 'ReputationRegistry', 'giveFeedback', [
      tokenId,
      90n,
      0,
      'starred',
      '',
      file.body.endpoint,
      feedbackUri,
      file.headers.get('x-feedback-hash'),
    ]);
    await send(stranger.key, reputation(), 'ReputationRegistry', 'giveFeedback', [
      tokenId,
      1000n,
      2,
      'starred',
      '',
      '',
      '',
      `0x${'00'.repeat(32)}`,
    ]);
    await expect(
      chain.client.simulateContract({
        address: reputation(),
        abi: artifact('ReputationRegistry').abi,
        functionName: 'giveFeedback',
        args: [tokenId, 100n, 0, '', '', '', '', `0x${'00'.repeat(32)}`],
        account: agentOwner.address,
      }),
    ).rejects.toThrow(/self feedback/);
    for (let i = 0; i < 3; i++) await indexErc8004();

    const list = await app.get(`/api/v1/agents/${agentOwner.agentId}/erc8004/feedback`);
    expect(list.status).toBe(200);
    expect(list.body.feedback).toHaveLength(2);
    const byClient = new Map(list.body.feedback.map((f: { client_address: string }) => [f.client_address, f]));
    expect(byClient.get(payer.address)).toMatchObject({ rating: 90, evidence: true, feedback_uri: feedbackUri, revoked: false });
    expect(byClient.get(stranger.address)).toMatchObject({ rating: 10, value: '1000', value_decimals: 2, evidence: false });
    expect(list.body.summary).toMatchObject({ count: 2, evidence_count: 1, evidence_mean_rating: 90, mean_rating: 50 });

    // Trust edges: the payer's feedback adds (90 - 50) / 100 = 0.4; the stranger's adds nothing.
    const edges = await database().sql.query<{ source_agent_id: string; strength: number }>(
      `SELECT source_agent_id, strength FROM trust_edges WHERE target_agent_id = $1 AND type = 'trust'`,
      [agentOwner.agentId],
    );
    expect(edges.map((e) => [e.source_agent_id, Number(e.strength).toFixed(2)])).toEqual([[payer.agentId, '0.40']]);

    // Unlinking takes the token's feedback out of the agent's trust edges; linking it again brings it back.
    const trustInto = async () =>
      (
        await database().sql.query<{ source_agent_id: string; strength: number }>(
          `SELECT source_agent_id, strength FROM trust_edges WHERE target_agent_id = $1 AND type = 'trust'`,
          [agentOwner.agentId],
        )
      ).map((e) => [e.source_agent_id, Number(e.strength).toFixed(2)]);
    const link = `/api/v1/agents/${agentOwner.agentId}/erc8004/link`;
    expect((await app.request('DELETE', link, { token: agentOwner.token })).status).toBe(200);
    expect(await trustInto()).toEqual([]);
    const relinked = await app.post(
      link,
      { erc8004_agent_id: tokenId.toString(), agent_registry: registryRef() },
      { token: agentOwner.token },
    );
    expect(relinked.status).toBe(200);
    expect(await trustInto()).toEqual([[payer.agentId, '0.40']]);

    // The verifier's summary of the identity.
    const verified = await app.get(`/api/v1/verify/erc8004/${registryRef()}/${tokenId}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      exists: true,
      owner: agentOwner.address,
      agent_wallet: agentOwner.address,
      vouchsafe_agent: { id: agentOwner.agentId, agent_uri_points_here: true },
      onchain_summary: { clients: 2, count: 2, mean_rating: 50 },
      feedback: { count: 2, evidence_count: 1 },
    });
    expect((await app.get(`/api/v1/verify/erc8004/${registryRef()}/987654`)).body).toMatchObject({ exists: false });
    expect((await app.get(`/api/v1/verify/erc8004/eip155:1:${identity()}/${tokenId}`)).status).toBe(422);
    expect((await app.get(`/api/v1/verify/erc8004/nonsense/${tokenId}`)).status).toBe(400);

    // Revoking takes the payer's feedback out of the trust edge.
    await send(payer.key, reputation(), 'ReputationRegistry', 'revokeFeedback', [tokenId, 1n]);
    for (let i = 0; i < 2; i++) await indexErc8004();
    const after = await app.get(`/api/v1/agents/${agentOwner.agentId}/erc8004/feedback`);
    expect(after.body.summary).toMatchObject({ count: 1, revoked_count: 1, evidence_count: 0 });
    const remaining = await database().sql.query(`SELECT 1 FROM trust_edges WHERE target_agent_id = $1 AND type = 'trust'`, [
      agentOwner.agentId,
    ]);
    expect(remaining).toHaveLength(0);
  });
});

/** The card's JWS checked with jose over the RFC 8785 form of the card without `signatures`. */
async function cardVerifies(card: Record<string, unknown> & { signatures: { protected: string; signature: string }[] }) {
  const jwks = (await app.get('/api/v1/router/jwks')).body as JSONWebKeySet;
  const { signatures, ...unsigned } = card;
  expect(decodeProtectedHeader(signatures[0]!).kid).toBeTruthy();
  return flattenedVerify(
    {
      protected: signatures[0]!.protected,
      signature: signatures[0]!.signature,
      payload: base64url.encode(canonicalize(unsigned)!),
    },
    createLocalJWKSet(jwks),
  ).then(
    () => true,
    () => false,
  );
}

describe('ERC-8004 in the A2A card and the registration file', () => {
  it('a linked agent’s signed card carries the ERC-8004 extension {registry, agentId, chainId}; the verifier follows it back', async () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const validateCard = ajv.compile(agentCardJsonSchema);
    const owner = await user('Card Linker');
    await callableAgent(owner);
    const before = (await app.get(`/api/v1/agents/${owner.agentId}/agent-card.json`)).body;
    const extensionUris = (card: { capabilities: { extensions: { uri: string }[] } }) =>
      card.capabilities.extensions.map((e) => e.uri);
    expect(extensionUris(before)).toEqual(['urn:vouchsafe:a2a:invoke:v1']);

    const tokenId = await registerAndLink(owner);
    const card = (await app.get(`/api/v1/agents/${owner.agentId}/agent-card.json`)).body;
    expect(validateCard(card), JSON.stringify(validateCard.errors)).toBe(true);
    expect(extensionUris(card)).toEqual(['urn:vouchsafe:a2a:invoke:v1', 'https://eips.ethereum.org/EIPS/eip-8004']);
    const extension = card.capabilities.extensions[1];
    expect(extension.params).toEqual({
      registry: registryRef(),
      agentId: Number(tokenId),
      chainId: 8453,
      registrations: [{ agentId: Number(tokenId), agentRegistry: registryRef() }],
    });
    // Still signed, and the extension is covered by the signature.
    expect(await cardVerifies(card)).toBe(true);
    const tampered = structuredClone(card);
    tampered.capabilities.extensions[1].params.agentId = Number(tokenId) + 1;
    expect(await cardVerifies(tampered)).toBe(false);

    // The verifier reads the extension and finds the registry's tokenURI is this agent's registration file.
    const verdict = await app.post('/api/v1/verify/agent-card', { card });
    expect(verdict.status).toBe(200);
    expect(verdict.body.checked.erc8004.ok, JSON.stringify(verdict.body)).toBe(true);
    expect(verdict.body.checked.erc8004.registrations).toHaveLength(1);
    expect(verdict.body.checked.erc8004.registrations[0]).toMatchObject({
      agent_id: tokenId.toString(),
      agent_registry: registryRef(),
    });
    expect(verdict.body.checked.signature.ok).toBe(true);

    // Unlinked: the extension is gone again.
    await app.request('DELETE', `/api/v1/agents/${owner.agentId}/erc8004/link`, { token: owner.token });
    const after = (await app.get(`/api/v1/agents/${owner.agentId}/agent-card.json`)).body;
    expect(extensionUris(after)).toEqual(['urn:vouchsafe:a2a:invoke:v1']);
    expect(await cardVerifies(after)).toBe(true);
  });

  it('x402Support is true only for a priced, callable agent on an instance with x402 on', async () => {
    const x402Of = async (agentId: string) => {
      const file = await app.get(`/api/v1/agents/${agentId}/registration.json`);
      expect(file.status).toBe(200);
      return file.body.x402Support as boolean;
    };
    const owner = await user('Payable');
    // Not callable: nothing to pay for.
    expect(await x402Of(owner.agentId)).toBe(false);
    // Callable at 2 CLAW a call: the invoke route offers the price in USDC over x402 (the devnet has it on).
    await callableAgent(owner, 2);
    expect(await x402Of(owner.agentId)).toBe(true);
    const offer = await app.post(`/api/v1/agents/${owner.agentId}/invoke`, { q: 1 }, { token: (await user('Broke')).token });
    expect(offer.status).toBe(402);
    expect(offer.headers.get('payment-required')).toBeTruthy();
    // Free: the router never charges, so never takes x402.
    await callableAgent(owner, 0);
    expect(await x402Of(owner.agentId)).toBe(false);
    // Paused by its owner: not callable.
    await callableAgent(owner, 2);
    const paused = await app.request('PATCH', `/api/v1/agents/${owner.agentId}`, {
      token: owner.token,
      body: { status: 'paused' },
    });
    expect(paused.status).toBe(200);
    expect(await x402Of(owner.agentId)).toBe(false);
  });
});

import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { FlattenedSign } from 'jose';
import { getAddress } from 'viem';
import { requireAgent } from '../agents/find-agent';
import { db, database } from '../core/db';
import type { Agent } from '../core/db/generated/client';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { linkOf } from '../erc8004/links';
import { activeRouterKey } from '../invoke/router-keys';

// Signed A2A v1.0 AgentCards (docs/a2a.md): one per callable agent and the platform's own at
// /.well-known/agent-card.json. The card is the ProtoJSON form of a2a.proto's AgentCard with no
// default-valued field (specification 8.4.1), signed as a JWS with a detached payload: the RFC 8785
// canonical card without `signatures`, EdDSA with the router's active key, `kid` and `jku` naming
// the router JWKS. A card is built and signed per request (an Ed25519 signature is ~50 µs), so it
// always carries the key in force; Cache-Control keeps a copy shorter than a retired key stays listed.

/** The A2A protocol version the cards declare. */
export const A2A_PROTOCOL_VERSION = '1.0';
/** The interface binding of the router's invoke route (not one of A2A's core bindings: docs/a2a.md). */
export const INVOKE_BINDING = 'urn:vouchsafe:binding:invoke:v1';
/** The platform REST API's binding (the platform card). */
export const REST_BINDING = 'urn:vouchsafe:binding:rest:v1';
/** The extension that carries Vouchsafe's invoke details (the JSON Schema of the payload, the price). */
export const INVOKE_EXTENSION = 'urn:vouchsafe:a2a:invoke:v1';
/**
 * The extension through which a card names its ERC-8004 identity (docs/a2a.md, docs/spec-decisions.md):
 * the EIP's own URL, as the verifier reads it (ERC8004_EXTENSION in verify-agent-card.ts).
 */
export const ERC8004_CARD_EXTENSION = 'https://eips.ethereum.org/EIPS/eip-8004';
/** How long a card may be cached (the JWKS keeps a retired key listed longer: server/invoke/router-keys.ts). */
export const CARD_MAX_AGE_S = 300;
/** At most this many published skills are listed. */
const MAX_SKILLS = 50;

export type AgentCardJson = Record<string, unknown> & { signatures?: unknown[] };

export function jwksUrl(base: string): string {
  return `${base}/api/v1/router/jwks`;
}

export function agentCardUrl(base: string, agentId: string): string {
  return `${base}/api/v1/agents/${agentId}/agent-card.json`;
}

export function wellKnownCardUrl(origin: string): string {
  return `${origin}/.well-known/agent-card.json`;
}

/** The bytes an AgentCardSignature signs: the RFC 8785 form of the card without `signatures`. */
export function cardSigningPayload(card: Record<string, unknown>): Uint8Array {
  const unsigned = { ...card };
  delete unsigned.signatures;
  const text = canonicalize(unsigned);
  if (text === undefined) throw new Error('the card cannot be canonicalized');
  return new TextEncoder().encode(text);
}

async function sign(card: Record<string, unknown>): Promise<AgentCardJson> {
  const { config } = currentRuntime();
  const key = await activeRouterKey(database().sql);
  const jws = await new FlattenedSign(cardSigningPayload(card))
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JOSE', kid: key.kid, jku: jwksUrl(config.PUBLIC_BASE_URL) })
    .sign(key.privateKey);
  return { ...card, signatures: [{ protected: jws.protected!, signature: jws.signature }] };
}

/** A callable agent: active, is_callable and with an invoke_url (the router's rule). */
function isCallable(agent: Agent): boolean {
  return agent.status === 'active' && agent.isCallable && Boolean(agent.invokeUrl);
}

function microToClaw(micro: bigint): number {
  return Number(micro) / 1_000_000;
}

const BEARER_SCHEMES = {
  bearer: {
    httpAuthSecurityScheme: {
      scheme: 'Bearer',
      description: 'A Vouchsafe bearer token (POST /api/v1/auth/verify) with the agents.invoke scope',
    },
  },
  api_key: {
    apiKeySecurityScheme: {
      location: 'header',
      name: 'X-Api-Key',
      description: 'A Vouchsafe ck_ API key with the agents.invoke scope',
    },
  },
};

/**
 * The ERC-8004 identity an agent is linked to, as a card extension: `registry` (the Identity registry as
 * a CAIP-10 account id, eip155:<chainId>:<address>), `agentId` and `chainId`, and `registrations` in the
 * form of a registration file's, which the card verifier follows back through tokenURI. agentId is a JSON
 * number when it fits one exactly, else a decimal string (as in the registration file).
 */
function erc8004Extension(link: { agent_id: string; agent_registry: string }): Record<string, unknown> {
  const agentId = BigInt(link.agent_id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(link.agent_id) : link.agent_id;
  const chainId = Number(link.agent_registry.split(':')[1]);
  return {
    uri: ERC8004_CARD_EXTENSION,
    description: 'ERC-8004 identity: this agent’s token in an Identity registry, verified on chain by Vouchsafe',
    params: {
      registry: link.agent_registry,
      agentId,
      chainId,
      registrations: [{ agentId, agentRegistry: link.agent_registry }],
    },
  };
}

/** The unsigned card of an agent (404 when it is unknown or not callable). */
export async function unsignedAgentCard(ref: string): Promise<Record<string, unknown>> {
  const agent = await requireAgent(ref).catch(() => null);
  if (!agent || !isCallable(agent)) throw new ApiError('not_found', 'Agent not found or not callable');
  const { config } = currentRuntime();
  const base = config.PUBLIC_BASE_URL;
  const skills = await db().skill.findMany({
    where: { authorAgentId: agent.id, status: 'active', removedAt: null, hiddenAt: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: MAX_SKILLS,
    select: { id: true, name: true, summary: true, description: true, category: true, tags: true },
  });
  const link = await linkOf(agent.id);
  const invokeSchema = agent.invokeSchema as Record<string, unknown> | null;
  const invokeSkill: Record<string, unknown> = {
    id: 'invoke',
    name: `Invoke ${agent.name}`,
    description: invokeSchema
      ? `Call ${agent.name} through the Vouchsafe router: POST a JSON object matching this JSON Schema: ${JSON.stringify(invokeSchema)}`
      : `Call ${agent.name} through the Vouchsafe router: POST any JSON object.`,
    tags: ['invoke', 'vouchsafe'],
    inputModes: ['application/json'],
    outputModes: ['application/json'],
  };
  const invokeParams: Record<string, unknown> = {
    agentId: agent.id,
    handle: agent.handle,
    priceClawPerCall: microToClaw(agent.priceClawPerCall),
    profile: `${base}/agents/${agent.handle}`,
    registration: `${base}/api/v1/agents/${agent.id}/registration.json`,
  };
  if (invokeSchema) invokeParams.invokeSchema = invokeSchema;
  const card: Record<string, unknown> = {
    name: agent.name,
    description: agent.bio || `${agent.name} (@${agent.handle}), an agent on Vouchsafe`,
    supportedInterfaces: [
      { url: `${base}/api/v1/agents/${agent.id}/invoke`, protocolBinding: INVOKE_BINDING, protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    provider: {
      organization: `eip155:${config.CHAIN_ID}:${getAddress(agent.ownerWallet)}`,
      url: `${base}/agents/${agent.handle}`,
    },
    version: `1.0.0+${Math.floor(agent.updatedAt.getTime() / 1000)}`,
    documentationUrl: `${base}/api/v1/agents/${agent.id}`,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          uri: INVOKE_EXTENSION,
          description: 'Vouchsafe invocation: the payload’s JSON Schema, the price per call in CLAW and the agent’s records',
          params: invokeParams,
        },
        ...(link ? [erc8004Extension(link)] : []),
      ],
    },
    securitySchemes: BEARER_SCHEMES,
    securityRequirements: [
      { schemes: { bearer: { list: ['agents.invoke'] } } },
      { schemes: { api_key: { list: ['agents.invoke'] } } },
    ],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [
      invokeSkill,
      ...skills.map((skill) => ({
        id: skill.id,
        name: skill.name,
        description: skill.summary || skill.description,
        tags: [...new Set([skill.category, ...skill.tags])].filter(Boolean),
      })),
    ],
  };
  if (agent.avatarUrl) card.iconUrl = agent.avatarUrl;
  return card;
}

/** GET /api/v1/agents/{id}/agent-card.json: the agent's signed card. */
export async function agentCard(ref: string): Promise<AgentCardJson> {
  return sign(await unsignedAgentCard(ref));
}

/** The platform's own card, unsigned. */
export function unsignedPlatformCard(): Record<string, unknown> {
  const { config } = currentRuntime();
  const base = config.PUBLIC_BASE_URL;
  const skill = (id: string, name: string, description: string, tags: string[]) => ({
    id,
    name,
    description,
    tags,
    inputModes: ['application/json'],
    outputModes: ['application/json'],
  });
  return {
    name: 'Vouchsafe',
    description:
      'Identity, trust and safety for autonomous agents on Base: wallet-proven agent identities, a Sybil-resistant trust score, a paid invocation router with signed forwarded calls, and verification of A2A agent cards and ERC-8004 identities.',
    supportedInterfaces: [{ url: `${base}/api/v1`, protocolBinding: REST_BINDING, protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: 'Vouchsafe', url: base },
    version: '1.0.0',
    documentationUrl: `${base}/docs`,
    capabilities: { streaming: false, pushNotifications: false },
    securitySchemes: BEARER_SCHEMES,
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [
      skill(
        'verify-agent-card',
        'Verify an A2A agent card',
        `POST ${base}/api/v1/verify/agent-card with {card} or {url}: checks the card's JWS signature against its jku JWKS, that its domain serves it and that any ERC-8004 registration it names points back.`,
        ['a2a', 'verification', 'jws'],
      ),
      skill(
        'invoke-agent',
        'Invoke an agent through the router',
        `POST ${base}/api/v1/agents/{id}/invoke with a bearer token: the router charges the caller, forwards the signed call and settles. Each callable agent's own card is at ${base}/api/v1/agents/{id}/agent-card.json.`,
        ['invoke', 'router', 'payments'],
      ),
      skill(
        'agent-directory',
        'Find agents and their trust',
        `GET ${base}/api/v1/agents and GET ${base}/api/v1/agents/{id}: agents, their trust score and recent activity.`,
        ['directory', 'trust', 'reputation'],
      ),
    ],
  };
}

/** GET /.well-known/agent-card.json: the platform's signed card. */
export function platformCard(): Promise<AgentCardJson> {
  return sign(unsignedPlatformCard());
}

/** Headers for a served card (A2A 8.6.1): a max-age and an ETag of the unsigned content. */
export function cardHeaders(card: AgentCardJson): Record<string, string> {
  const etag = createHash('sha256').update(cardSigningPayload(card)).digest('base64url').slice(0, 27);
  return { 'Cache-Control': `public, max-age=${CARD_MAX_AGE_S}`, ETag: `"${etag}"` };
}

import { requireAgent } from '../agents/find-agent';
import { currentRuntime } from '../core/runtime';
import { x402Context } from '../x402/context';
import { linkOf } from './links';

// An agent's ERC-8004 registration file (registration-v1, docs/erc8004.md): what its agentURI
// resolves to. Services: the web profile, the MCP endpoint, and for callable agents the A2A card
// and the router's invoke route.

export const REGISTRATION_TYPE = 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1';

/**
 * Whether a caller can pay this agent over x402 (docs/payments.md): the router's invoke route takes a
 * PAYMENT-SIGNATURE for a priced, callable agent, when x402 is on for this instance (a chain, an asset and a
 * facilitator). A free agent, one that is not callable, or an instance without x402: false.
 */
async function x402Supported(agent: {
  status: string;
  isCallable: boolean;
  invokeUrl: string | null;
  priceClawPerCall: bigint;
}): Promise<boolean> {
  if (agent.status !== 'active' || !agent.isCallable || !agent.invokeUrl || agent.priceClawPerCall <= 0n) return false;
  return (await x402Context()) !== null;
}

export async function registrationFile(ref: string) {
  const agent = await requireAgent(ref);
  const base = currentRuntime().config.PUBLIC_BASE_URL;
  const link = await linkOf(agent.id);
  const services: { name: string; endpoint: string; version?: string }[] = [
    { name: 'web', endpoint: `${base}/agents/${agent.handle}` },
    { name: 'MCP', endpoint: `${base}/api/v1/mcp`, version: '2025-06-18' },
  ];
  if (agent.isCallable) {
    services.push({ name: 'A2A', endpoint: `${base}/api/v1/agents/${agent.id}/agent-card.json`, version: '1.0' });
    services.push({ name: 'invoke', endpoint: `${base}/api/v1/agents/${agent.id}/invoke`, version: 'v1' });
  }
  const registrations = link
    ? [
        {
          agentId: BigInt(link.agent_id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(link.agent_id) : link.agent_id,
          agentRegistry: link.agent_registry,
        },
      ]
    : [];
  return {
    type: REGISTRATION_TYPE,
    name: agent.name,
    description: agent.bio || `${agent.name} (@${agent.handle}) on Vouchsafe`,
    image: agent.avatarUrl ?? `${base}/favicon.svg`,
    services,
    x402Support: await x402Supported(agent),
    active: agent.status === 'active',
    registrations,
    supportedTrust: ['reputation'],
  };
}

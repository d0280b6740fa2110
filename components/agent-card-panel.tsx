'use client';
// The agent page's A2A card (docs/a2a.md): a link to the signed AgentCard, what it declares, and the
// verdict of POST /api/v1/verify/agent-card on it (signature, serving domain, ERC-8004 registrations).
import { useQuery } from '@tanstack/react-query';
import { Card } from './ui/states';

interface Verdict {
  valid: boolean;
  reasons: string[];
  checked: {
    signature: { ok: boolean; kid: string | null; detail: string };
    domain: { ok: boolean; detail: string };
    erc8004: { ok: boolean; detail: string };
  };
}

interface CardExtension {
  uri: string;
  params?: { registry?: string; agentId?: number | string };
}

/** The ERC-8004 identity the card names (its eip-8004 extension, docs/a2a.md), if any. */
function erc8004Of(card: { capabilities?: { extensions?: CardExtension[] } }) {
  const extension = card.capabilities?.extensions?.find((e) => e.uri === 'https://eips.ethereum.org/EIPS/eip-8004');
  return extension?.params?.registry && extension.params.agentId !== undefined
    ? { registry: extension.params.registry, agentId: String(extension.params.agentId) }
    : null;
}

async function loadCard(agentId: string) {
  const url = `/api/v1/agents/${encodeURIComponent(agentId)}/agent-card.json`;
  const cardResponse = await fetch(url, { headers: { accept: 'application/json' } });
  if (!cardResponse.ok) throw new Error(`The card could not be loaded (HTTP ${cardResponse.status})`);
  const card = (await cardResponse.json()) as {
    supportedInterfaces: { url: string }[];
    skills: { id: string; name: string }[];
    capabilities?: { extensions?: CardExtension[] };
  };
  const verifyResponse = await fetch('/api/v1/verify/agent-card', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ card }),
  });
  const verdict = verifyResponse.ok ? ((await verifyResponse.json()) as Verdict) : null;
  return { url, card, verdict };
}

export function AgentCardPanel({ agentId }: { agentId: string }) {
  const query = useQuery({ queryKey: ['a2a-card', agentId], queryFn: () => loadCard(agentId), staleTime: 60_000, retry: false });
  return (
    <Card title="A2A agent card">
      {query.isLoading ? (
        <p className="text-sm text-slate-400" role="status">
          Loading the card…
        </p>
      ) : query.error ? (
        <p className="text-sm text-rose-300">{(query.error as Error).message}</p>
      ) : (
        <div className="flex flex-col gap-2 text-sm" data-testid="agent-card">
          <p>
            <a className="underline hover:text-white" href={query.data!.url}>
              agent-card.json
            </a>{' '}
            <span className="text-slate-400">(A2A v1.0, JWS-signed by the router key)</span>
          </p>
          <p data-testid="agent-card-signature">
            Signature:{' '}
            {query.data!.verdict === null ? (
              <span className="text-slate-400">not checked (try again later)</span>
            ) : query.data!.verdict.checked.signature.ok ? (
              <span className="text-emerald-300">valid (key {query.data!.verdict.checked.signature.kid?.slice(0, 10)}…)</span>
            ) : (
              <span className="text-rose-300">invalid: {query.data!.verdict.checked.signature.detail}</span>
            )}
          </p>
          {query.data!.verdict ? (
            <p>
              Served by its domain:{' '}
              {query.data!.verdict.checked.domain.ok ? (
                <span className="text-emerald-300">yes</span>
              ) : (
                <span className="text-rose-300">no</span>
              )}
            </p>
          ) : null}
          {erc8004Of(query.data!.card) ? (
            <p data-testid="agent-card-erc8004" className="break-all">
              ERC-8004 identity: #{erc8004Of(query.data!.card)!.agentId} in <code>{erc8004Of(query.data!.card)!.registry}</code>
              {query.data!.verdict ? (
                query.data!.verdict.checked.erc8004.ok ? (
                  <span className="text-emerald-300"> (its registration points back)</span>
                ) : (
                  <span className="text-rose-300"> (does not point back: {query.data!.verdict.checked.erc8004.detail})</span>
                )
              ) : null}
            </p>
          ) : null}
          <p className="break-all text-slate-400">Interface: {query.data!.card.supportedInterfaces[0]?.url}</p>
          <p className="text-slate-400">Skills: {query.data!.card.skills.map((skill) => skill.name).join(', ')}</p>
        </div>
      )}
    </Card>
  );
}

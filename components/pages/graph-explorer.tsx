'use client';
import { useQuery } from '@tanstack/react-query';
import Graph from 'graphology';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { forceLayout } from '../graph-layout';
import { useTRPC } from '../trpc';
import { useQueryInUrl } from '../use-query-in-url';
import { Button, Field, Input, Select } from '../ui/form';
import { ErrorState, Loading } from '../ui/states';

export const EDGE_COLORS: Record<string, string> = { trust: '#34d399', collaboration: '#60a5fa', partnership: '#f472b6' };

export function GraphExplorer({ initialAgent, initialDepth }: { initialAgent: string; initialDepth: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [agentText, setAgentText] = useState(initialAgent);
  const [agent, setAgent] = useState(initialAgent);
  const [depth, setDepth] = useState(initialDepth);
  const container = useRef<HTMLDivElement>(null);
  const [renderError, setRenderError] = useState<string | null>(null);
  const graph = useQuery(trpc.graph.around.queryOptions({ agent: agent || undefined, depth }));

  useQueryInUrl('/graph', { agent, depth: depth !== 2 && depth });

  useEffect(() => {
    const data = graph.data;
    const element = container.current;
    if (!data || !element) return;
    let renderer: { kill(): void } | null = null;
    let cancelled = false;
    const g = new Graph({ multi: true, type: 'directed' });
    const positions = forceLayout(
      data.nodes.map((node) => node.id),
      data.edges,
    );
    for (const node of data.nodes) {
      const position = positions.get(node.id)!;
      g.addNode(node.id, {
        label: `${node.name} (${node.trust_score})`,
        x: position.x,
        y: position.y,
        size: 4 + Math.min(12, node.trust_score / 20),
        color: node.id === data.focus ? '#fbbf24' : '#e2e8f0',
      });
    }
    for (const edge of data.edges) {
      if (g.hasNode(edge.source) && g.hasNode(edge.target)) {
        g.addEdge(edge.source, edge.target, {
          color: EDGE_COLORS[edge.type] ?? '#94a3b8',
          size: 1 + edge.strength * 2,
          type: 'arrow',
        });
      }
    }
    // Sigma draws with WebGL; without it (some headless browsers) the table below is the view.
    import('sigma')
      .then(({ default: Sigma }) => {
        if (cancelled) return;
        try {
          const sigma = new Sigma(g, element, {
            labelColor: { color: '#e2e8f0' },
            labelRenderedSizeThreshold: 0,
            renderEdgeLabels: false,
          });
          sigma.on('clickNode', ({ node }) => {
            const handle = data.nodes.find((n) => n.id === node)?.handle;
            if (handle) router.push(`/agents/${handle}`);
          });
          renderer = sigma;
          setRenderError(null);
        } catch (error) {
          setRenderError(error instanceof Error ? error.message : String(error));
        }
      })
      .catch((error: unknown) => setRenderError(String(error)));
    return () => {
      cancelled = true;
      renderer?.kill();
    };
  }, [graph.data, router]);

  return (
    <div className="flex flex-col gap-4">
      <form
        className="grid gap-3 sm:grid-cols-[1fr_auto_auto]"
        onSubmit={(event) => {
          event.preventDefault();
          setAgent(agentText.trim());
        }}
      >
        <Field label="Agent (id or handle; empty for the most trusted agents)">
          <Input value={agentText} onChange={(event) => setAgentText(event.target.value)} maxLength={64} />
        </Field>
        <Field label="Depth">
          <Select
            value={depth}
            onChange={(event) => setDepth(Number(event.target.value))}
            options={[1, 2, 3, 4]}
            labels={(value) => `${value} hop${value > 1 ? 's' : ''}`}
          />
        </Field>
        <Button type="submit" className="self-end">
          Show
        </Button>
      </form>
      <p className="flex flex-wrap gap-4 text-sm" aria-label="Edge colours">
        {Object.entries(EDGE_COLORS).map(([type, color]) => (
          <span key={type} className="flex items-center gap-2">
            <span className="inline-block h-1 w-6 rounded" style={{ background: color }} aria-hidden="true" />
            {type}
          </span>
        ))}
      </p>
      {graph.isLoading ? <Loading label="Loading the trust graph…" /> : null}
      {graph.error ? <ErrorState error={graph.error} title="Could not load the graph" /> : null}
      <div
        ref={container}
        className="h-[420px] w-full rounded-lg border border-slate-800 bg-slate-900/60 sm:h-[560px]"
        role="img"
        aria-label="Force-directed trust graph; the same nodes and edges are listed below"
        data-testid="graph-canvas"
      />
      {renderError ? (
        <p className="text-sm text-amber-300">
          The interactive view needs WebGL ({renderError}); the lists below show the same graph.
        </p>
      ) : null}
      {graph.data ? (
        <details className="rounded-lg border border-slate-800 p-4" open={graph.data.nodes.length <= 12}>
          <summary className="cursor-pointer font-medium">
            {graph.data.nodes.length} agents, {graph.data.edges.length} edges{graph.data.truncated ? ' (truncated)' : ''}
          </summary>
          <ul className="mt-3 grid gap-1 text-sm sm:grid-cols-2" data-testid="graph-nodes">
            {graph.data.nodes.map((node) => (
              <li key={node.id}>
                <Link className="underline hover:text-white" href={`/agents/${node.handle}`}>
                  {node.name}
                </Link>{' '}
                · trust {node.trust_score}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

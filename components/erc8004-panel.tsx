'use client';
import { useQuery } from '@tanstack/react-query';
import { shortAddress } from './ui/format';
import { Card } from './ui/states';

// The agent page's ERC-8004 card (docs/erc8004.md): the linked identity and its on-chain feedback,
// read from the public REST endpoint.

interface FeedbackList {
  erc8004: { agent_id: string; agent_registry: string } | null;
  summary: { count: number; evidence_count: number; evidence_mean_rating: number | null; weighted_rating: number | null };
  feedback: {
    client_address: string;
    feedback_index: number;
    rating: number;
    tag1: string;
    evidence: boolean;
    revoked: boolean;
  }[];
}

export function Erc8004Panel({ agentRef }: { agentRef: string }) {
  const query = useQuery({
    queryKey: ['erc8004-feedback', agentRef],
    queryFn: async (): Promise<FeedbackList> => {
      const response = await fetch(`/api/v1/agents/${encodeURIComponent(agentRef)}/erc8004/feedback?limit=20`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as FeedbackList;
    },
  });
  if (!query.data) return null;
  const { erc8004, summary, feedback } = query.data;
  return (
    <Card title="ERC-8004 identity">
      {erc8004 ? (
        <div data-testid="erc8004-link" className="text-sm">
          <p>
            Agent #{erc8004.agent_id} in <code className="break-all">{erc8004.agent_registry}</code>
          </p>
          <p className="mt-2 text-slate-400">
            {summary.count} on-chain feedback, {summary.evidence_count} from reviewers with a paid call or job
            {summary.evidence_mean_rating !== null ? ` (mean ${summary.evidence_mean_rating.toFixed(1)})` : ''}
          </p>
          {feedback.length > 0 ? (
            <ul className="mt-2 space-y-1" data-testid="erc8004-feedback">
              {feedback.map((entry) => (
                <li key={`${entry.client_address}-${entry.feedback_index}`} className={entry.revoked ? 'line-through' : ''}>
                  {shortAddress(entry.client_address)}: {entry.rating}
                  {entry.tag1 ? ` (${entry.tag1})` : ''}
                  {entry.evidence ? ' · evidence' : ''}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-slate-400">Not linked to an ERC-8004 identity.</p>
      )}
    </Card>
  );
}

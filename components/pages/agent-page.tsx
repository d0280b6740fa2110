'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useSignMessage } from 'wagmi';
import { TRUST_RULES } from '@/server/trust/trust-score';
import { useTRPC } from '../trpc';
import { Card, ErrorState, Loading, shortAddress } from '../ui/states';
import { useSession } from '../use-session';

const ATTESTATION_TYPES = ['verified', 'trusted', 'skill_verified', 'security_audited'] as const;
type AttestationType = (typeof ATTESTATION_TYPES)[number];

const COMPONENTS: [
  key: 'verified' | 'tier' | 'skills' | 'attestations' | 'account_age' | 'connections',
  label: string,
  max: number,
][] = [
  ['verified', 'Verified', 20],
  ['tier', 'Tier', 50],
  ['skills', 'Published skills', 50],
  ['attestations', 'Endorsements and attestations', 100],
  ['account_age', 'Account age', 20],
  ['connections', 'Trust-graph connections', 40],
];

/** The exact text the REST API and the tRPC procedure check: `Endorse agent <id> as <type> <unix seconds>`. */
export function endorseMessage(agentId: string, type: AttestationType, nowMs = Date.now()): string {
  return `Endorse agent ${agentId} as ${type} ${Math.floor(nowMs / 1000)}`;
}

export function AgentPage({ agentRef }: { agentRef: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.agents.get.queryOptions({ ref: agentRef }));
  if (query.isLoading) return <Loading label="Loading agent…" />;
  if (query.error) {
    return (
      <ErrorState
        error={query.error}
        title={query.error.data?.code === 'NOT_FOUND' ? 'No agent with this id or handle' : 'Could not load this agent'}
      />
    );
  }
  const { profile, endorsements, attestations, skills, propagated } = query.data!;
  const trust = profile.trust!;
  const callable = profile.is_callable && profile.status === 'active';
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="flex flex-col gap-6 lg:col-span-2">
        <Card title="Profile">
          <p className="text-slate-300">{profile.bio || 'No bio yet.'}</p>
          <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-slate-400">Handle</dt>
              <dd>@{profile.handle}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Owner wallet</dt>
              <dd className="break-all font-mono text-xs">{profile.owner_wallet}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Tier</dt>
              <dd>{profile.tier}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Status</dt>
              <dd>{profile.status}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Callable</dt>
              <dd data-testid="callable">{callable ? 'Yes' : 'No'}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Price per call</dt>
              <dd>{profile.price_claw_per_call} CLAW</dd>
            </div>
            <div>
              <dt className="text-slate-400">Registered</dt>
              <dd>{new Date(profile.created).toLocaleDateString('en-US')}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Socials</dt>
              <dd>
                {[
                  profile.twitter_handle ? `X @${profile.twitter_handle}` : null,
                  profile.discord_handle ? `Discord ${profile.discord_handle}` : null,
                  profile.telegram_handle ? `Telegram ${profile.telegram_handle}` : null,
                ]
                  .filter(Boolean)
                  .join(' · ') || 'none'}
              </dd>
            </div>
          </dl>
          <p className="mt-4 text-sm">
            <Link className="underline hover:text-white" href={`/graph?agent=${profile.handle}`}>
              See its trust graph
            </Link>
          </p>
        </Card>

        <Card title="Endorsements and attestations">
          <p className="mb-3 text-sm text-slate-400">{endorsements.trust_impact_formula}</p>
          {attestations.length === 0 ? (
            <p className="text-slate-300">No endorsements or attestations yet.</p>
          ) : (
            <ul className="flex flex-col gap-2" data-testid="endorsement-list">
              {endorsements.endorsements.map((endorsement) => (
                <li key={endorsement.id} className="rounded-md border border-slate-800 px-3 py-2 text-sm">
                  <span className="font-medium">{endorsement.attestation_type}</span> endorsement by{' '}
                  <span className="font-mono">{shortAddress(endorsement.attestor_wallet)}</span> ·{' '}
                  {new Date(endorsement.created_at).toLocaleString('en-US')}
                </li>
              ))}
              {attestations
                .filter((attestation) => attestation.attestation_type === 'peer_attestation')
                .map((attestation, index) => (
                  <li key={`att-${index}`} className="rounded-md border border-slate-800 px-3 py-2 text-sm">
                    <span className="font-medium">peer attestation</span> · verdict{' '}
                    {'verdict' in attestation ? String(attestation.verdict) : ''} · weight{' '}
                    {'weight' in attestation ? String(attestation.weight) : ''} ·{' '}
                    {new Date(attestation.created_at).toLocaleString('en-US')}
                  </li>
                ))}
            </ul>
          )}
        </Card>

        <Card title="Recent activity">
          <p className="mb-2 text-sm text-slate-400">
            Calls in the last 24 h: {profile.activity_counts.invocations_received_24h} received,{' '}
            {profile.activity_counts.invocations_made_24h} made.
          </p>
          {profile.recent_activity.length === 0 ? (
            <p className="text-slate-300">No recent activity.</p>
          ) : (
            <ul className="flex flex-col gap-1 text-sm">
              {profile.recent_activity.map((event) => (
                <li key={event.id}>
                  <span className="font-mono text-emerald-300">{event.event}</span> ·{' '}
                  {new Date(event.timestamp).toLocaleString('en-US')}
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card title="Skills">
          {skills.length === 0 ? (
            <p className="text-slate-300">No published skills.</p>
          ) : (
            <ul>
              {skills.map((skill) => (
                <li key={skill.name}>{skill.name}</li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <div className="flex flex-col gap-6">
        <Card title="Trust score">
          <p className="text-4xl font-semibold tabular-nums" data-testid="trust-total">
            {trust.total}
            <span className="text-base font-normal text-slate-400"> / 280</span>
          </p>
          <p className="text-sm text-slate-400" data-testid="propagated-trust">
            {attestations.length > 0 ? (
              <>Propagated trust: {propagated} / 100 (relative to the best-trusted agent)</>
            ) : (
              <>Propagated trust: — (no endorsements yet: trust flows in only through them)</>
            )}
          </p>
          <table className="mt-4 w-full text-sm">
            <caption className="sr-only">Trust score components</caption>
            <thead>
              <tr className="text-left text-slate-400">
                <th scope="col" className="font-normal">
                  Component
                </th>
                <th scope="col" className="text-right font-normal">
                  Points
                </th>
              </tr>
            </thead>
            <tbody>
              {COMPONENTS.map(([key, label, max]) => (
                <tr key={key} className="border-t border-slate-800">
                  <td className="py-1">{label}</td>
                  <td className="py-1 text-right tabular-nums">
                    {trust.components[key]} / {max}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-3 text-xs text-slate-400">Formula: {trust.formula}</p>
        </Card>
        <EndorseCard agentId={profile.agent_id} ownerWallet={profile.owner_wallet} components={trust.components} />
      </div>
    </div>
  );
}

type TrustComponents = Record<(typeof COMPONENTS)[number][0], number>;

/** The change of each trust component, e.g. "+10 endorsements and attestations, +2 trust-graph connections". */
export function explainTrustChange(before: TrustComponents, after: TrustComponents): string[] {
  return COMPONENTS.flatMap(([key, label]) => {
    const delta = after[key] - before[key];
    return delta === 0 ? [] : [`${delta > 0 ? '+' : ''}${delta} ${label.toLowerCase()}`];
  });
}

function EndorseCard({
  agentId,
  ownerWallet,
  components,
}: {
  agentId: string;
  ownerWallet: string;
  components: TrustComponents;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const { signMessageAsync } = useSignMessage();
  const [type, setType] = useState<AttestationType>('trusted');
  const [message, setMessage] = useState<string | null>(null);
  const endorse = useMutation(
    trpc.agents.endorse.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.agents.get.queryKey() }),
    }),
  );
  const [signError, setSignError] = useState<string | null>(null);
  // The components when the user endorsed, to say which of them the endorsement moved.
  const [before, setBefore] = useState<TrustComponents | null>(null);

  if (!session.wallet) {
    return (
      <Card title="Endorse">
        <p className="text-sm text-slate-300">Sign in with your wallet to endorse this agent.</p>
      </Card>
    );
  }
  if (session.wallet.toLowerCase() === ownerWallet.toLowerCase()) {
    return (
      <Card title="Endorse">
        <p className="text-sm text-slate-300">This is your agent: an owner cannot endorse its own agent.</p>
      </Card>
    );
  }
  const submit = async () => {
    setSignError(null);
    const text = endorseMessage(agentId, type);
    setMessage(text);
    setBefore(components);
    try {
      const signature = await signMessageAsync({ message: text, account: session.wallet as `0x${string}` });
      endorse.mutate({ ref: agentId, attestationType: type, message: text, signature });
    } catch (error) {
      setSignError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
    }
  };
  return (
    <Card title="Endorse">
      <label className="flex flex-col gap-1 text-sm">
        Endorsement type
        <select
          value={type}
          onChange={(event) => setType(event.target.value as AttestationType)}
          className="rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base"
        >
          {ATTESTATION_TYPES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        onClick={() => void submit()}
        disabled={endorse.isPending}
        className="mt-3 w-full rounded-md bg-emerald-500 px-3 py-2 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
      >
        {endorse.isPending ? 'Endorsing…' : 'Sign and endorse'}
      </button>
      {message ? (
        <p className="mt-2 break-all text-xs text-slate-400">
          Your wallet signs: <code data-testid="endorse-message">{message}</code>
        </p>
      ) : null}
      <p className="mt-2 text-xs text-slate-400" data-testid="endorse-explainer">
        An endorsement adds +{TRUST_RULES.attestations.points} to this agent&apos;s endorsements and attestations (at most{' '}
        {TRUST_RULES.attestations.cap}) and, when it links your agent to this one for the first time in the trust graph, +
        {TRUST_RULES.connections.points} for a new connection (at most {TRUST_RULES.connections.cap}).
      </p>
      {endorse.data ? <EndorseResult impact={endorse.data.trust_impact} before={before} after={components} /> : null}
      {endorse.error ? <ErrorState error={endorse.error} title="Endorsement refused" /> : null}
      {signError ? <ErrorState error={signError} title="The wallet did not sign" /> : null}
    </Card>
  );
}

function EndorseResult({
  impact,
  before,
  after,
}: {
  impact: { points: number; previous_trust_score: number; new_trust_score: number };
  before: TrustComponents | null;
  after: TrustComponents;
}) {
  const parts = before ? explainTrustChange(before, after) : [];
  const sum = before ? COMPONENTS.reduce((total, [key]) => total + after[key] - before[key], 0) : null;
  // The breakdown once the page shows the new score (its parts add up to trust_impact.points).
  const breakdown = sum === impact.points && parts.length > 0 ? `: ${parts.join(', ')}` : '';
  return (
    <p role="status" className="mt-2 text-sm text-emerald-300" data-testid="endorse-result">
      Endorsed. Trust {impact.previous_trust_score} → {impact.new_trust_score} ({impact.points >= 0 ? '+' : ''}
      {impact.points}
      {breakdown}).
    </p>
  );
}

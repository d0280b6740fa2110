'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { AgentCardPanel } from '../agent-card-panel';
import { Erc8004Panel } from '../erc8004-panel';
import { useTRPC } from '../trpc';
import { formatDate, formatDateTime, shortAddress } from '../ui/format';
import { Card, ErrorState, Loading } from '../ui/states';
import { EndorseCard } from './agent-endorse';
import { TrustCard } from './agent-trust';

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
              <dd>{formatDate(profile.created)}</dd>
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
                  {formatDateTime(endorsement.created_at)}
                </li>
              ))}
              {attestations
                .filter((attestation) => attestation.attestation_type === 'peer_attestation')
                .map((attestation, index) => (
                  <li key={`att-${index}`} className="rounded-md border border-slate-800 px-3 py-2 text-sm">
                    <span className="font-medium">peer attestation</span> · verdict{' '}
                    {'verdict' in attestation ? String(attestation.verdict) : ''} · weight{' '}
                    {'weight' in attestation ? String(attestation.weight) : ''} · {formatDateTime(attestation.created_at)}
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
                  <span className="font-mono text-emerald-300">{event.event}</span> · {formatDateTime(event.timestamp)}
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
        <TrustCard trust={trust} propagated={attestations.length > 0 ? propagated : null} />
        <Erc8004Panel agentRef={agentRef} />
        <EndorseCard agentId={profile.agent_id} ownerWallet={profile.owner_wallet} components={trust.components} />
        {callable ? <AgentCardPanel agentId={profile.agent_id} /> : null}
      </div>
    </div>
  );
}

'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSignMessage } from 'wagmi';
import { ATTESTATION_TYPES, type AttestationType } from '@/server/schemas/enums';
import { TRUST_RULES } from '@/server/trust/trust-score';
import { useTRPC } from '../trpc';
import { useSession } from '../use-session';
import { Button, Field, Select } from '../ui/form';
import { Card, ErrorState, SignInNote } from '../ui/states';
import { COMPONENTS, explainTrustChange, type TrustComponents } from './agent-trust';

/** The exact text the REST API and the tRPC procedure check: `Endorse agent <id> as <type> <unix seconds>`. */
export function endorseMessage(agentId: string, type: AttestationType, nowMs = Date.now()): string {
  return `Endorse agent ${agentId} as ${type} ${Math.floor(nowMs / 1000)}`;
}

export function EndorseCard({
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
    return <SignInNote title="Endorse">Sign in with your wallet to endorse this agent.</SignInNote>;
  }
  if (session.wallet.toLowerCase() === ownerWallet.toLowerCase()) {
    return <SignInNote title="Endorse">This is your agent: an owner cannot endorse its own agent.</SignInNote>;
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
      <Field label="Endorsement type">
        <Select value={type} onChange={(event) => setType(event.target.value as AttestationType)} options={ATTESTATION_TYPES} />
      </Field>
      <Button onClick={() => void submit()} disabled={endorse.isPending} className="mt-3 w-full">
        {endorse.isPending ? 'Endorsing…' : 'Sign and endorse'}
      </Button>
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

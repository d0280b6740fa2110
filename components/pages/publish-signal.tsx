'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { SIGNAL_TYPES, type SignalType } from '@/server/schemas/enums';
import { useTRPC } from '../trpc';
import { Button, ClawInput, Field, Input, Select, TextArea } from '../ui/form';
import { claw } from '../ui/format';
import { ActionError, Card, SignInNote } from '../ui/states';

/** The signals feed's "Publish a signal" form (signals.publish), with the publisher's stake. */
export function PublishSignalCard({ signedIn }: { signedIn: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [type, setType] = useState<SignalType>('long');
  const [asset, setAsset] = useState('');
  const [confidence, setConfidence] = useState('70');
  const [stakeAmount, setStakeAmount] = useState('1');
  const publish = useMutation(
    trpc.signals.publish.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.signals.list.queryKey() }),
    }),
  );
  if (!signedIn) {
    return (
      <SignInNote title="Publish a signal">
        Sign in with your wallet to publish a signal or stake on one. A signal carries a stake of at least 1 CLAW, paid out when
        it resolves.
      </SignInNote>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate({
      title,
      body,
      signal_type: type,
      asset,
      confidence: Number(confidence),
      stake_claw: Number(stakeAmount),
    });
  };
  return (
    <Card title="Publish a signal">
      <form className="flex flex-col gap-3" aria-label="Publish a signal" onSubmit={submit}>
        <Field label="Title">
          <Input required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
        </Field>
        <Field label="Reasoning">
          <TextArea required rows={4} maxLength={10_000} value={body} onChange={(e) => setBody(e.target.value)} />
        </Field>
        <Field label="Type">
          <Select value={type} onChange={(e) => setType(e.target.value as SignalType)} options={SIGNAL_TYPES} />
        </Field>
        <Field label="Asset (symbol or token address)">
          <Input required maxLength={100} value={asset} onChange={(e) => setAsset(e.target.value)} />
        </Field>
        <Field label="Confidence (%)">
          <Input
            required
            type="number"
            min="0"
            max="100"
            step="any"
            value={confidence}
            onChange={(e) => setConfidence(e.target.value)}
          />
        </Field>
        <Field label="Your stake (CLAW, at least 1)">
          <ClawInput required min="1" value={stakeAmount} onChange={(e) => setStakeAmount(e.target.value)} />
        </Field>
        <Button type="submit" disabled={publish.isPending}>
          {publish.isPending ? 'Publishing…' : 'Publish signal'}
        </Button>
      </form>
      {publish.data ? (
        <p role="status" className="mt-3 text-sm text-emerald-300" data-testid="signal-published">
          Published with {claw(publish.data.stake_claw)} staked.
        </p>
      ) : null}
      {publish.error ? <ActionError error={publish.error} title="The signal was not published" /> : null}
    </Card>
  );
}

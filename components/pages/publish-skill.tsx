'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { SKILL_CATEGORIES_A } from '@/server/schemas/enums';
import { useTRPC } from '../trpc';
import { useSession } from '../use-session';
import { Button, Field, Input, Select, TextArea } from '../ui/form';
import { Card, ErrorState, SignInNote } from '../ui/states';

/** The marketplace's "Publish a skill" form (skills.publish, as POST /api/skills; Pro tier). */
export function PublishSkill() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const ids = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState<(typeof SKILL_CATEGORIES_A)[number]>('automation');
  const [pricing, setPricing] = useState<'free' | 'paid' | 'subscription'>('free');
  const [price, setPrice] = useState('');
  const publish = useMutation(
    trpc.skills.publish.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.skills.list.queryKey() }),
    }),
  );
  if (!session.wallet) {
    return <SignInNote title="Publish a skill">Sign in with your wallet to publish a skill (Pro tier or above).</SignInNote>;
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate({
      name,
      description,
      category,
      pricing_type: pricing,
      ...(pricing !== 'free' && price ? { price_claw: Number(price) } : {}),
    });
  };
  return (
    <Card title="Publish a skill">
      <p className="mb-3 text-sm text-slate-400">
        Uploading needs the Pro tier. A safety scan keeps a suspicious skill in draft (visible to you only) with its reasons.
      </p>
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
        <Field label="Name" className="sm:col-span-2">
          <Input required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label="Description" className="sm:col-span-2">
          <TextArea
            required
            maxLength={5000}
            rows={4}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Field>
        <Field label="Category">
          <Select
            value={category}
            onChange={(event) => setCategory(event.target.value as typeof category)}
            options={SKILL_CATEGORIES_A}
          />
        </Field>
        <Field label="Pricing">
          <Select
            value={pricing}
            onChange={(event) => setPricing(event.target.value as typeof pricing)}
            options={['free', 'paid', 'subscription'] as const}
            labels={{ free: 'free', paid: 'paid once', subscription: 'subscription (30 days)' }}
          />
        </Field>
        {pricing !== 'free' ? (
          <Field label="Price (CLAW)" htmlFor={`${ids}-price`}>
            <Input
              id={`${ids}-price`}
              type="number"
              min={0}
              step="any"
              required
              value={price}
              onChange={(event) => setPrice(event.target.value)}
            />
          </Field>
        ) : null}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={publish.isPending}>
            {publish.isPending ? 'Publishing…' : 'Publish'}
          </Button>
        </div>
      </form>
      {publish.data ? (
        <p role="status" className="mt-3 text-sm text-emerald-300" data-testid="publish-result">
          {publish.data.status === 'active'
            ? `Published “${publish.data.name}”.`
            : `“${publish.data.name}” is kept in draft: ${publish.data.review?.reasons.join('; ') ?? 'flagged by the safety scan'}.`}
        </p>
      ) : null}
      {publish.error ? <ErrorState error={publish.error} title="Publishing refused" /> : null}
    </Card>
  );
}

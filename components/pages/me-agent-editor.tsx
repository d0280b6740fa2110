'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { Button, CheckField, Field, Input, TextArea } from '../ui/form';
import { formatDateTime } from '../ui/format';
import { Card, ErrorState } from '../ui/states';

/** One of your agents on /me: profile and callable settings (me.updateAgent). */
interface EditableAgent {
  agent_id: string;
  agent_name: string;
  handle: string;
  bio: string;
  twitter_handle: string | null;
  discord_handle: string | null;
  telegram_handle: string | null;
  is_callable: boolean;
  invoke_url?: string | null;
  price_claw_per_call: number;
  /** A raised price waiting out its notice period (PRICE_NOTICE_SECONDS). */
  price_pending_claw?: number;
  price_effective_at?: string;
  status: 'active' | 'paused';
  admin_paused: boolean;
  trust_score: number;
}

export function AgentEditor({ agent }: { agent: EditableAgent }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.me.updateAgent.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    update.mutate({
      agentId: agent.agent_id,
      patch: {
        agent_name: text('agent_name'),
        bio: text('bio'),
        twitter_handle: text('twitter_handle') || null,
        discord_handle: text('discord_handle') || null,
        telegram_handle: text('telegram_handle') || null,
        is_callable: form.get('is_callable') === 'on',
        invoke_url: text('invoke_url') || null,
        price_claw_per_call: Number(text('price_claw_per_call') || '0'),
        ...(agent.admin_paused ? {} : { status: form.get('paused') === 'on' ? 'paused' : 'active' }),
      },
    });
  };
  const id = agent.agent_id.slice(0, 8);
  return (
    <Card title={`Your agent: ${agent.agent_name}`}>
      <p className="mb-3 text-sm text-slate-400">
        <Link className="underline" href={`/agents/${agent.handle}`}>
          @{agent.handle}
        </Link>{' '}
        · trust {agent.trust_score} · {agent.status}
        {agent.admin_paused ? ' (paused by an administrator)' : ''}
      </p>
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" aria-label={`Edit ${agent.agent_name}`}>
        <Field label="Name" htmlFor={`name-${id}`}>
          <Input id={`name-${id}`} name="agent_name" defaultValue={agent.agent_name} minLength={2} maxLength={50} required />
        </Field>
        <Field label="X (Twitter) handle">
          <Input name="twitter_handle" defaultValue={agent.twitter_handle ?? ''} maxLength={16} />
        </Field>
        <Field label="Bio" className="sm:col-span-2">
          <TextArea name="bio" defaultValue={agent.bio} maxLength={500} rows={3} />
        </Field>
        <Field label="Discord">
          <Input name="discord_handle" defaultValue={agent.discord_handle ?? ''} maxLength={64} />
        </Field>
        <Field label="Telegram">
          <Input name="telegram_handle" defaultValue={agent.telegram_handle ?? ''} maxLength={64} />
        </Field>
        <fieldset className="grid gap-3 rounded-md border border-slate-800 p-3 sm:col-span-2 sm:grid-cols-2">
          <legend className="px-1 text-sm text-slate-300">Callable settings</legend>
          <CheckField name="is_callable" defaultChecked={agent.is_callable} label="Other agents may call it" />
          <CheckField name="paused" defaultChecked={agent.status === 'paused'} disabled={agent.admin_paused} label="Paused" />
          <Field label="Invoke URL">
            <Input name="invoke_url" type="url" defaultValue={agent.invoke_url ?? ''} maxLength={2048} />
          </Field>
          <Field label="Price per call (CLAW)">
            <Input name="price_claw_per_call" type="number" min={0} step="0.000001" defaultValue={agent.price_claw_per_call} />
            {agent.price_pending_claw !== undefined && agent.price_effective_at ? (
              <span data-testid="price-pending" className="text-xs text-amber-300">
                Raised to {agent.price_pending_claw} CLAW from {formatDateTime(agent.price_effective_at)}: callers get notice of a
                higher price; a lower one applies at once.
              </span>
            ) : null}
          </Field>
        </fieldset>
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save'}
          </Button>
          {update.isSuccess ? (
            <span role="status" className="text-sm text-emerald-300">
              Saved.
            </span>
          ) : null}
        </div>
        {update.error ? <ErrorState error={update.error} title="Not saved" /> : null}
      </form>
    </Card>
  );
}

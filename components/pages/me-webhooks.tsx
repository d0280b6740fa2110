'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Button, CheckList, Field, Input } from '../ui/form';
import { formatDateTime } from '../ui/format';
import { SecretOnce } from '../ui/list';
import { Card, ErrorState, Loading } from '../ui/states';
import { DataTable } from '../ui/table';

// /me's webhooks: create (a generated signing secret shown once), list, delete, and each one's
// deliveries with redeliver.

export function Webhooks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hooks = useQuery(trpc.me.webhooks.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.me.webhooks.queryKey() });
  const create = useMutation(trpc.me.createWebhook.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.me.deleteWebhook.mutationOptions({ onSuccess: refresh }));
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  type EventName = NonNullable<typeof hooks.data>['events'][number]['name'];
  const [events, setEvents] = useState<EventName[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Card title="Webhooks">
      <form
        className="flex flex-col gap-3"
        aria-label="New webhook"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({ url: url.trim(), events, ...(secret ? { secret } : {}) });
        }}
      >
        <Field label="Webhook URL">
          <Input
            type="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            required
            maxLength={2048}
            placeholder="https://example.com/hooks/vouchsafe"
          />
        </Field>
        {hooks.data ? (
          <CheckList
            legend="Events (tick at least one)"
            options={hooks.data.events.map((item) => item.name)}
            value={events}
            onChange={setEvents}
            note={(name) => {
              const tier = hooks.data.events.find((item) => item.name === name)?.min_tier;
              return tier && tier !== 'none' ? <span className="text-xs text-slate-400">({tier} tier)</span> : null;
            }}
          />
        ) : null}
        <Field label="Signing secret (optional, 16+ characters; leave empty to get a generated one)">
          <Input
            type="password"
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
            minLength={16}
            maxLength={256}
            autoComplete="off"
          />
        </Field>
        <Button className="self-start" type="submit" disabled={create.isPending || !url.trim() || events.length === 0}>
          {create.isPending ? 'Creating…' : 'Create webhook'}
        </Button>
      </form>
      {create.data && 'secret' in create.data ? (
        <SecretOnce title="Copy the signing secret now: it is shown only once." testId="webhook-secret">
          {create.data.secret}
        </SecretOnce>
      ) : null}
      {create.error ? <ErrorState error={create.error} title="Could not create the webhook" /> : null}
      {remove.error ? <ErrorState error={remove.error} title="Could not delete the webhook" /> : null}
      {hooks.isLoading ? <Loading label="Loading webhooks…" /> : null}
      {hooks.error ? <ErrorState error={hooks.error} title="Could not load webhooks" /> : null}
      {hooks.data ? (
        hooks.data.webhooks.length === 0 ? (
          <p className="mt-3 text-slate-300">No webhooks yet.</p>
        ) : (
          <ul className="mt-4 flex flex-col gap-3" data-testid="webhooks">
            {hooks.data.webhooks.map((hook) => (
              <li key={hook.id} className="rounded-md border border-slate-800 p-3" data-webhook-id={hook.id}>
                <p className="break-all font-mono text-sm">{hook.url}</p>
                <p className="mt-1 text-sm text-slate-400">
                  <span data-testid="webhook-state">{hook.is_active ? 'active' : 'disabled'}</span> · {hook.delivery_count}{' '}
                  deliveries · last delivered {formatDateTime(hook.last_delivered_at)}
                </p>
                <p className="mt-1 break-words text-xs text-slate-400">{hook.events.join(', ')}</p>
                <div className="mt-2 flex flex-wrap gap-2">
                  <Button
                    variant="secondary"
                    size="xs"
                    aria-expanded={open === hook.id}
                    onClick={() => setOpen(open === hook.id ? null : hook.id)}
                  >
                    {open === hook.id ? 'Hide deliveries' : 'Show deliveries'}
                  </Button>
                  <Button
                    variant="danger"
                    size="xs"
                    onClick={() => {
                      if (window.confirm(`Delete the webhook ${hook.url}?`)) remove.mutate({ id: hook.id });
                    }}
                    aria-label={`Delete webhook ${hook.url}`}
                  >
                    Delete
                  </Button>
                </div>
                {open === hook.id ? <Deliveries webhookId={hook.id} /> : null}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </Card>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deliveries = useQuery({ ...trpc.me.webhookDeliveries.queryOptions({ id: webhookId }), refetchInterval: 5000 });
  const redeliver = useMutation(
    trpc.me.redeliver.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.me.pathKey() }) }),
  );
  if (deliveries.isLoading) return <Loading label="Loading deliveries…" />;
  if (deliveries.error) return <ErrorState error={deliveries.error} title="Could not load deliveries" />;
  const rows = deliveries.data!.deliveries;
  return (
    <div className="mt-3">
      {redeliver.error ? <ErrorState error={redeliver.error} title="Could not redeliver" /> : null}
      {rows.length === 0 ? (
        <p className="text-sm text-slate-300" data-testid="no-deliveries">
          No deliveries yet: they appear when a subscribed event happens.
        </p>
      ) : (
        <DataTable
          caption="Deliveries of this webhook, newest first"
          columns={['Event', 'Status', 'Attempts', 'Response', 'Error', 'Next attempt']}
          actions
          minWidth="min-w-[640px]"
          testId="deliveries"
        >
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-slate-800">
              <td className="py-2 font-mono text-xs">{row.event}</td>
              <td className="py-2" data-testid="delivery-status">
                {row.status}
              </td>
              <td className="py-2">{row.attempts}</td>
              <td className="py-2">{row.response_code ?? '—'}</td>
              <td className="max-w-[16rem] break-words py-2 text-xs">{row.error ?? '—'}</td>
              <td className="py-2">{formatDateTime(row.next_attempt_at)}</td>
              <td className="py-2 text-right">
                {row.status === 'failed' || row.status === 'delivered' ? (
                  <Button variant="secondary" size="xs" onClick={() => redeliver.mutate({ id: webhookId, delivery_id: row.id })}>
                    Redeliver
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}

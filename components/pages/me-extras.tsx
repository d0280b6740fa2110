'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Card, ErrorState, Loading } from '../ui/states';

const input = 'rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base';
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US') : '—');

export function Webhooks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hooks = useQuery(trpc.me.webhooks.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.me.webhooks.queryKey() });
  const create = useMutation(trpc.me.createWebhook.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.me.deleteWebhook.mutationOptions({ onSuccess: refresh }));
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  type EventName = NonNullable<typeof hooks.data>['events'][number]['name'];
  return (
    <Card title="Webhooks">
      <form
        className="flex flex-col gap-3"
        aria-label="New webhook"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({ url: url.trim(), events: events as EventName[], ...(secret ? { secret } : {}) });
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          Webhook URL
          <input
            type="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            className={input}
            required
            maxLength={2048}
            placeholder="https://example.com/hooks/vouchsafe"
          />
        </label>
        {hooks.data ? (
          <fieldset className="rounded-md border border-slate-800 p-3">
            <legend className="px-1 text-sm text-slate-300">Events (tick at least one)</legend>
            <div className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-3">
              {hooks.data.events.map((item) => (
                <label key={item.name} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={events.includes(item.name)}
                    onChange={(event) =>
                      setEvents(event.target.checked ? [...events, item.name] : events.filter((name) => name !== item.name))
                    }
                  />
                  <span className="font-mono text-xs">{item.name}</span>
                  {item.min_tier !== 'none' ? <span className="text-xs text-slate-400">({item.min_tier} tier)</span> : null}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        <label className="flex flex-col gap-1 text-sm">
          Signing secret (optional, 16+ characters; leave empty to get a generated one)
          <input
            type="password"
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
            className={input}
            minLength={16}
            maxLength={256}
            autoComplete="off"
          />
        </label>
        <button
          type="submit"
          disabled={create.isPending || !url.trim() || events.length === 0}
          className="self-start rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
        >
          {create.isPending ? 'Creating…' : 'Create webhook'}
        </button>
      </form>
      {create.data && 'secret' in create.data ? (
        <div role="status" className="mt-3 rounded-md border border-emerald-700 bg-emerald-950/50 p-3 text-sm">
          <p className="font-medium">Copy the signing secret now: it is shown only once.</p>
          <code className="mt-1 block break-all" data-testid="webhook-secret">
            {create.data.secret}
          </code>
        </div>
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
                  deliveries · last delivered {when(hook.last_delivered_at)}
                </p>
                <p className="mt-1 break-words text-xs text-slate-400">{hook.events.join(', ')}</p>
                <div className="mt-2 flex flex-wrap gap-2">
                  <button
                    type="button"
                    aria-expanded={open === hook.id}
                    onClick={() => setOpen(open === hook.id ? null : hook.id)}
                    className="rounded-md border border-slate-700 px-2 py-1 text-sm hover:bg-slate-800"
                  >
                    {open === hook.id ? 'Hide deliveries' : 'Show deliveries'}
                  </button>
                  <button
                    type="button"
                    onClick={() => {
                      if (window.confirm(`Delete the webhook ${hook.url}?`)) remove.mutate({ id: hook.id });
                    }}
                    className="rounded-md border border-rose-700 px-2 py-1 text-sm text-rose-200 hover:bg-rose-950"
                    aria-label={`Delete webhook ${hook.url}`}
                  >
                    Delete
                  </button>
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
        <div className="relative overflow-x-auto" tabIndex={0}>
          <table className="w-full min-w-[640px] text-sm" data-testid="deliveries">
            <caption className="sr-only">Deliveries of this webhook, newest first</caption>
            <thead>
              <tr className="text-left text-slate-400">
                {['Event', 'Status', 'Attempts', 'Response', 'Error', 'Next attempt'].map((label) => (
                  <th key={label} scope="col" className="py-1 font-normal">
                    {label}
                  </th>
                ))}
                <th scope="col" className="py-1 font-normal">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-slate-800">
                  <td className="py-2 font-mono text-xs">{row.event}</td>
                  <td className="py-2" data-testid="delivery-status">
                    {row.status}
                  </td>
                  <td className="py-2">{row.attempts}</td>
                  <td className="py-2">{row.response_code ?? '—'}</td>
                  <td className="max-w-[16rem] break-words py-2 text-xs">{row.error ?? '—'}</td>
                  <td className="py-2">{when(row.next_attempt_at)}</td>
                  <td className="py-2 text-right">
                    {row.status === 'failed' || row.status === 'delivered' ? (
                      <button
                        type="button"
                        onClick={() => redeliver.mutate({ id: webhookId, delivery_id: row.id })}
                        className="rounded-md border border-slate-700 px-2 py-1 hover:bg-slate-800"
                      >
                        Redeliver
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function MemoryViewer() {
  const trpc = useTRPC();
  const agents = useQuery(trpc.me.agents.queryOptions());
  const [chosen, setChosen] = useState<string | null>(null);
  if (agents.isLoading) return null;
  if (agents.error || !agents.data?.length) return null;
  const agentId = chosen ?? agents.data[0]!.agent_id;
  return (
    <Card title="Agent memory">
      {agents.data.length > 1 ? (
        <label className="mb-3 flex flex-col gap-1 text-sm">
          Agent
          <select value={agentId} onChange={(event) => setChosen(event.target.value)} className={input}>
            {agents.data.map((agent) => (
              <option key={agent.agent_id} value={agent.agent_id}>
                {agent.agent_name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <MemoryKeys agentId={agentId} />
    </Card>
  );
}

function MemoryKeys({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const memory = useQuery(trpc.me.memory.queryOptions({ agentId }));
  const [viewing, setViewing] = useState<string | null>(null);
  const remove = useMutation(
    trpc.me.deleteMemoryKey.mutationOptions({
      onSuccess: () => {
        setViewing(null);
        return queryClient.invalidateQueries({ queryKey: trpc.me.memory.queryKey({ agentId }) });
      },
    }),
  );
  if (memory.isLoading) return <Loading label="Loading memory keys…" />;
  if (memory.error) return <ErrorState error={memory.error} title="Could not load memory" />;
  const data = memory.data!;
  return (
    <div>
      <p className="text-sm text-slate-400">
        {data.count} keys · {data.usage.used_bytes} of {data.usage.max_bytes} bytes ({data.usage.free_bytes} free) · storage{' '}
        {data.usage.daily_charge_claw} CLAW a day
      </p>
      {remove.error ? <ErrorState error={remove.error} title="Could not delete the key" /> : null}
      {data.keys.length === 0 ? (
        <p className="mt-3 text-slate-300">No memory keys. Agents write them through the API.</p>
      ) : (
        <div className="mt-3 relative overflow-x-auto" tabIndex={0}>
          <table className="w-full min-w-[560px] text-sm" data-testid="memory-keys">
            <caption className="sr-only">Memory keys of this agent</caption>
            <thead>
              <tr className="text-left text-slate-400">
                {['Key', 'Size', 'Updated', 'Expires'].map((label) => (
                  <th key={label} scope="col" className="py-1 font-normal">
                    {label}
                  </th>
                ))}
                <th scope="col" className="py-1 font-normal">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.keys.map((entry) => (
                <tr key={entry.key} className="border-t border-slate-800" data-key={entry.key}>
                  <td className="break-all py-2 font-mono text-xs">{entry.key}</td>
                  <td className="py-2">{entry.size_bytes} B</td>
                  <td className="py-2">{when(entry.updated_at)}</td>
                  <td className="py-2">{entry.expires_at ? when(entry.expires_at) : 'never'}</td>
                  <td className="py-2">
                    <div className="flex justify-end gap-2">
                      <button
                        type="button"
                        onClick={() => setViewing(viewing === entry.key ? null : entry.key)}
                        className="rounded-md border border-slate-700 px-2 py-1 hover:bg-slate-800"
                        aria-label={`View ${entry.key}`}
                      >
                        View
                      </button>
                      <button
                        type="button"
                        onClick={() => {
                          if (window.confirm(`Delete the memory key ${entry.key}?`)) remove.mutate({ agentId, key: entry.key });
                        }}
                        className="rounded-md border border-rose-700 px-2 py-1 text-rose-200 hover:bg-rose-950"
                        aria-label={`Delete ${entry.key}`}
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {viewing ? <MemoryValue agentId={agentId} memoryKey={viewing} /> : null}
    </div>
  );
}

function MemoryValue({ agentId, memoryKey }: { agentId: string; memoryKey: string }) {
  const trpc = useTRPC();
  const value = useQuery(trpc.me.memoryValue.queryOptions({ agentId, key: memoryKey }));
  if (value.isLoading) return <Loading label="Loading the value…" />;
  if (value.error) return <ErrorState error={value.error} title="Could not read the key" />;
  return (
    <figure className="mt-3">
      <figcaption className="text-sm text-slate-400">
        <span className="font-mono">{memoryKey}</span>
      </figcaption>
      <pre
        className="mt-1 max-h-80 overflow-auto rounded-md border border-slate-800 bg-slate-950 p-3 text-xs"
        data-testid="memory-value"
        tabIndex={0}
      >
        {JSON.stringify(value.data!.value, null, 2)}
      </pre>
    </figure>
  );
}

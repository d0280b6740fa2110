'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Button, Field, Select } from '../ui/form';
import { formatDateTime } from '../ui/format';
import { Card, ErrorState, Loading } from '../ui/states';
import { DataTable } from '../ui/table';

// /me's agent memory: the keys of one of your agents (size, updated, expiry), a value, delete.

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
        <Field label="Agent" className="mb-3">
          <Select
            value={agentId}
            onChange={(event) => setChosen(event.target.value)}
            options={agents.data.map((agent) => agent.agent_id)}
            labels={(id) => agents.data.find((agent) => agent.agent_id === id)?.agent_name ?? id}
          />
        </Field>
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
        <DataTable
          caption="Memory keys of this agent"
          columns={['Key', 'Size', 'Updated', 'Expires']}
          actions
          minWidth="min-w-[560px]"
          testId="memory-keys"
          className="mt-3"
        >
          {data.keys.map((entry) => (
            <tr key={entry.key} className="border-t border-slate-800" data-key={entry.key}>
              <td className="break-all py-2 font-mono text-xs">{entry.key}</td>
              <td className="py-2">{entry.size_bytes} B</td>
              <td className="py-2">{formatDateTime(entry.updated_at)}</td>
              <td className="py-2">{entry.expires_at ? formatDateTime(entry.expires_at) : 'never'}</td>
              <td className="py-2">
                <div className="flex justify-end gap-2">
                  <Button
                    variant="secondary"
                    size="xs"
                    onClick={() => setViewing(viewing === entry.key ? null : entry.key)}
                    aria-label={`View ${entry.key}`}
                  >
                    View
                  </Button>
                  <Button
                    variant="danger"
                    size="xs"
                    onClick={() => {
                      if (window.confirm(`Delete the memory key ${entry.key}?`)) remove.mutate({ agentId, key: entry.key });
                    }}
                    aria-label={`Delete ${entry.key}`}
                  >
                    Delete
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
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

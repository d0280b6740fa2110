'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Button, Field, Input } from '../ui/form';
import { shortAddress } from '../ui/format';
import { pageCount } from '../ui/pages';
import { Pagination } from '../ui/pagination';
import { Card, ErrorState, Loading } from '../ui/states';
import { DataTable } from '../ui/table';

/** The admin console's agents: search, pause and unpause (admin.pauseAgent, admin.unpauseAgent). */
export function AdminAgents() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const agents = useQuery({
    ...trpc.admin.agents.queryOptions({ search: search || undefined, page }),
    placeholderData: keepPreviousData,
  });
  const done = () => queryClient.invalidateQueries();
  const pause = useMutation(trpc.admin.pauseAgent.mutationOptions({ onSuccess: done }));
  const unpause = useMutation(trpc.admin.unpauseAgent.mutationOptions({ onSuccess: done }));
  return (
    <Card title="Agents">
      <Field label="Search agents">
        <Input
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
          maxLength={100}
        />
      </Field>
      {agents.isLoading ? <Loading label="Loading agents…" /> : null}
      {agents.error ? <ErrorState error={agents.error} title="Could not load agents" /> : null}
      {pause.error ? <ErrorState error={pause.error} title="Pause failed" /> : null}
      {unpause.error ? <ErrorState error={unpause.error} title="Unpause failed" /> : null}
      {agents.data ? (
        <>
          <DataTable
            caption="Agents and their status"
            columns={['Agent', 'Owner', 'Status']}
            actions
            minWidth="min-w-[560px]"
            testId="admin-agents"
            className="mt-3"
          >
            {agents.data.agents.map((agent) => (
              <tr key={agent.id} className="border-t border-slate-800" data-handle={agent.handle}>
                <td className="py-2">
                  <Link className="underline" href={`/agents/${agent.handle}`}>
                    {agent.name}
                  </Link>
                </td>
                <td className="py-2 font-mono text-xs">{shortAddress(agent.owner_wallet)}</td>
                <td className="py-2" data-testid="agent-status">
                  {agent.status}
                  {agent.admin_paused_at ? ' (by admin)' : ''}
                </td>
                <td className="py-2 text-right">
                  {agent.admin_paused_at ? (
                    <Button
                      variant="confirm"
                      size="xs"
                      onClick={() => unpause.mutate({ ref: agent.id })}
                      aria-label={`Unpause ${agent.name}`}
                    >
                      Unpause
                    </Button>
                  ) : (
                    <Button
                      variant="warning"
                      size="xs"
                      onClick={() => {
                        if (window.confirm(`Pause ${agent.name}? It stops being callable until an admin unpauses it.`))
                          pause.mutate({ ref: agent.id });
                      }}
                      aria-label={`Pause ${agent.name}`}
                    >
                      Pause
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
          <Pagination page={page} pages={pageCount(agents.data.total, 25)} onPage={setPage} className="mt-3" />
        </>
      ) : null}
    </Card>
  );
}

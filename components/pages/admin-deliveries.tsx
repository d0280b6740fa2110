'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Button } from '../ui/form';
import { formatDateTime, shortAddress } from '../ui/format';
import { PagerIfMany } from '../ui/list';
import { Card, ErrorState, Loading } from '../ui/states';
import { DataTable } from '../ui/table';

/** Every owner's webhook deliveries whose attempts all failed, with redeliver (admin.redeliver). */
export function FailedDeliveries() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deliveries = useQuery({ ...trpc.admin.failedDeliveries.queryOptions({ page }), placeholderData: keepPreviousData });
  const redeliver = useMutation(
    trpc.admin.redeliver.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() }) }),
  );
  return (
    <Card title="Failed webhook deliveries">
      {deliveries.isLoading ? <Loading label="Loading deliveries…" /> : null}
      {deliveries.error ? <ErrorState error={deliveries.error} title="Could not load deliveries" /> : null}
      {redeliver.error ? <ErrorState error={redeliver.error} title="Could not redeliver" /> : null}
      {redeliver.data ? (
        <p role="status" className="mb-2 text-sm text-emerald-300">
          Delivery queued again.
        </p>
      ) : null}
      {deliveries.data ? (
        deliveries.data.deliveries.length === 0 ? (
          <p className="text-slate-300">No failed deliveries.</p>
        ) : (
          <DataTable
            caption="Webhook deliveries whose attempts all failed"
            columns={['Webhook', 'Owner', 'Event', 'Attempts', 'Last error', 'Last attempt']}
            actions
            minWidth="min-w-[720px]"
            testId="failed-deliveries"
          >
            {deliveries.data.deliveries.map((row) => (
              <tr key={row.id} className="border-t border-slate-800">
                <td className="max-w-[14rem] break-all py-2 font-mono text-xs">{row.url}</td>
                <td className="py-2">
                  {row.owner_handle ? (
                    `@${row.owner_handle}`
                  ) : (
                    <span className="font-mono text-xs">{shortAddress(row.owner_wallet)}</span>
                  )}
                </td>
                <td className="py-2 font-mono text-xs">{row.event ?? '—'}</td>
                <td className="py-2">{row.attempts}</td>
                <td className="max-w-[14rem] break-words py-2 text-xs">
                  {row.response_code ? `${row.response_code} ` : ''}
                  {row.error ?? ''}
                </td>
                <td className="py-2">{formatDateTime(row.last_attempt_at)}</td>
                <td className="py-2 text-right">
                  <Button
                    variant="secondary"
                    size="xs"
                    disabled={redeliver.isPending}
                    onClick={() => redeliver.mutate({ deliveryId: row.id })}
                  >
                    Redeliver
                  </Button>
                </td>
              </tr>
            ))}
          </DataTable>
        )
      ) : null}
      {deliveries.data ? <PagerIfMany pageSize={25} page={page} total={deliveries.data.total} onPage={setPage} /> : null}
    </Card>
  );
}

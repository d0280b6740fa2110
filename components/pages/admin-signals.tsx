'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SIGNAL_OUTCOMES, type SignalOutcome } from '@/server/schemas/enums';
import { useTRPC } from '../trpc';
import { Button } from '../ui/form';
import { shortAddress } from '../ui/format';
import { PagerIfMany } from '../ui/list';
import { Card, ErrorState, Loading } from '../ui/states';
import { DataTable } from '../ui/table';

// The admin console's signal resolution: pick the outcome, see the payouts it makes, confirm
// (admin.previewResolution, admin.resolveSignal; audited on the server).

export function SignalResolution() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const signals = useQuery({ ...trpc.admin.openSignals.queryOptions({ page }), placeholderData: keepPreviousData });
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <Card title="Unresolved signals">
      {signals.isLoading ? <Loading label="Loading open signals…" /> : null}
      {signals.error ? <ErrorState error={signals.error} title="Could not load signals" /> : null}
      {signals.data ? (
        signals.data.signals.length === 0 ? (
          <p className="text-slate-300">No open signals.</p>
        ) : (
          <ul className="flex flex-col gap-3" data-testid="open-signals">
            {signals.data.signals.map((signal) => (
              <li key={signal.signal_id} className="rounded-md border border-slate-800 p-3" data-signal-id={signal.signal_id}>
                <p className="font-medium">{signal.title}</p>
                <p className="text-sm text-slate-400">
                  {signal.signal_type} {signal.asset} · confidence {signal.confidence}% · stake {signal.stake_claw} CLAW · agree{' '}
                  {signal.agree_claw} / disagree {signal.disagree_claw} CLAW · by{' '}
                  <span className="font-mono">{shortAddress(signal.publisher_wallet)}</span>
                  {signal.status === 'open' ? null : (
                    <span data-testid="signal-status">
                      {' '}
                      · {signal.status.replace('_', ' ')} (proposed: {signal.proposed_outcome})
                    </span>
                  )}
                </p>
                {selected === signal.signal_id ? (
                  <ResolveSteps signalId={signal.signal_id} title={signal.title} onClose={() => setSelected(null)} />
                ) : (
                  <Button
                    variant="confirm"
                    size="xs"
                    className="mt-2"
                    onClick={() => setSelected(signal.signal_id)}
                    aria-label={`Resolve ${signal.title}`}
                  >
                    Resolve…
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
      {signals.data ? <PagerIfMany pageSize={25} page={page} total={signals.data.total} onPage={setPage} /> : null}
    </Card>
  );
}

function ResolveSteps({ signalId, title, onClose }: { signalId: string; title: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<SignalOutcome | null>(null);
  const preview = useQuery({
    ...trpc.admin.previewResolution.queryOptions({ id: signalId, outcome: outcome ?? 'expired' }),
    enabled: outcome !== null,
  });
  const resolve = useMutation(trpc.admin.resolveSignal.mutationOptions());
  if (resolve.data) {
    return (
      <div
        role="status"
        className="mt-3 rounded-md border border-emerald-700 bg-emerald-950/50 p-3 text-sm"
        data-testid="resolved"
      >
        <p className="font-medium">
          Resolved as {resolve.data.outcome}; fee {resolve.data.fee_claw} CLAW.
        </p>
        <PayoutTable payouts={resolve.data.payouts} caption="Payouts made" />
        <Button
          variant="secondary"
          size="xs"
          className="mt-2"
          onClick={() => {
            onClose();
            void queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
          }}
        >
          Done
        </Button>
      </div>
    );
  }
  return (
    <div className="mt-3 flex flex-col gap-3">
      <fieldset className="rounded-md border border-slate-800 p-3">
        <legend className="px-1 text-sm text-slate-300">Step 1: the outcome of “{title}”</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {SIGNAL_OUTCOMES.map((value) => (
            <label key={value} className="flex items-center gap-2">
              <input type="radio" name={`outcome-${signalId}`} checked={outcome === value} onChange={() => setOutcome(value)} />
              {value}
            </label>
          ))}
        </div>
      </fieldset>
      {outcome && preview.isLoading ? <Loading label="Computing the payouts…" /> : null}
      {preview.error ? <ErrorState error={preview.error} title="Could not preview the payouts" /> : null}
      {outcome && preview.data ? (
        <div className="rounded-md border border-amber-700 bg-amber-950/30 p-3 text-sm" data-testid="payouts-preview">
          <p className="font-medium">
            Step 2: confirm. Resolving as <strong>{preview.data.outcome}</strong> pays out {preview.data.total_staked_claw} CLAW;
            platform fee <span data-testid="preview-fee">{preview.data.fee_claw}</span> CLAW.
          </p>
          <PayoutTable payouts={preview.data.payouts} caption="Payouts if resolved now" />
          <div className="mt-3 flex flex-wrap gap-2">
            <Button size="sm" disabled={resolve.isPending} onClick={() => resolve.mutate({ id: signalId, outcome })}>
              {resolve.isPending ? 'Resolving…' : `Confirm: resolve as ${outcome}`}
            </Button>
            <Button variant="secondary" size="xs" onClick={onClose}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
      {!outcome ? (
        <Button variant="secondary" size="xs" className="self-start" onClick={onClose}>
          Cancel
        </Button>
      ) : null}
      {resolve.error ? <ErrorState error={resolve.error} title="Resolution failed" /> : null}
    </div>
  );
}

function PayoutTable({
  payouts,
  caption,
}: {
  payouts: { wallet: string; role: string; staked_claw: number; payout_claw: number }[];
  caption: string;
}) {
  return (
    <DataTable
      caption={caption}
      columns={['Wallet', 'Role', 'Staked', 'Gets']}
      minWidth="min-w-[420px]"
      testId="payouts"
      className="mt-2"
    >
      {payouts.map((payout) => (
        <tr key={`${payout.wallet}-${payout.role}`} className="border-t border-slate-800" data-wallet={payout.wallet}>
          <td className="py-1 font-mono text-xs">{shortAddress(payout.wallet)}</td>
          <td className="py-1">{payout.role}</td>
          <td className="py-1 tabular-nums">{payout.staked_claw} CLAW</td>
          <td className="py-1 tabular-nums" data-testid="payout">
            {payout.payout_claw} CLAW
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Badge } from '../ui/badge';
import { Button, ClawInput, Field } from '../ui/form';
import { claw, formatUtc, plural, shortAddress } from '../ui/format';
import { ActionError } from '../ui/states';

// One signal of the feed: its facts, the stake totals and, for another signed-in wallet while it is
// open, the stake form.

interface SignalView {
  signal_id: string;
  title: string;
  body: string;
  signal_type: string;
  asset: string;
  confidence: number;
  stake_claw: number;
  publisher_wallet: string;
  created_at: string;
  status: 'open' | 'pending_resolution' | 'disputed' | 'resolved';
  outcome: string | null;
  resolved_at: string | null;
  agree_claw: number;
  disagree_claw: number;
  total_staked_claw: number;
  stake_count: number;
}

const typeTone = (type: string) =>
  type === 'long'
    ? ('emerald' as const)
    : type === 'short'
      ? ('rose' as const)
      : type === 'alert'
        ? ('amber' as const)
        : ('sky' as const);

export function SignalItem({ signal, viewer }: { signal: SignalView; viewer: string | null }) {
  const own = !!viewer && viewer.toLowerCase() === signal.publisher_wallet.toLowerCase();
  return (
    <li className="rounded-lg border border-slate-800 bg-slate-900/60 p-4" data-testid="signal">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 className="break-words text-base font-semibold">{signal.title}</h2>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-300">
            <Badge tone={typeTone(signal.signal_type)}>{signal.signal_type}</Badge>
            <span className="break-all">{signal.asset}</span>
            <span>confidence {signal.confidence}%</span>
            <span>by {shortAddress(signal.publisher_wallet)}</span>
            <span>{formatUtc(signal.created_at)}</span>
          </p>
        </div>
        <div>
          {signal.status === 'resolved' ? (
            <span data-testid="signal-outcome">
              <Badge tone={signal.outcome === 'correct' ? 'emerald' : signal.outcome === 'incorrect' ? 'rose' : 'slate'}>
                resolved: {signal.outcome}
              </Badge>
            </span>
          ) : (
            <Badge tone="sky">{signal.status === 'open' ? 'open' : signal.status.replace('_', ' ')}</Badge>
          )}
        </div>
      </div>
      <p className="mt-2 line-clamp-3 whitespace-pre-wrap break-words text-sm text-slate-300">{signal.body}</p>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" data-testid="stake-totals">
        <div>
          <dt className="text-xs text-slate-400">Publisher stake</dt>
          <dd className="tabular-nums">{claw(signal.stake_claw)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">Agree</dt>
          <dd className="tabular-nums" data-testid="agree-total">
            {claw(signal.agree_claw)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">Disagree</dt>
          <dd className="tabular-nums" data-testid="disagree-total">
            {claw(signal.disagree_claw)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">Total ({plural(signal.stake_count, 'stake')})</dt>
          <dd className="tabular-nums">{claw(signal.total_staked_claw)}</dd>
        </div>
      </dl>
      {viewer && !own && signal.status === 'open' ? <StakeForm signalId={signal.signal_id} title={signal.title} /> : null}
    </li>
  );
}

function StakeForm({ signalId, title }: { signalId: string; title: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('1');
  const stake = useMutation(
    trpc.signals.stake.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.signals.list.queryKey() }),
    }),
  );
  const place = (stance: 'agree' | 'disagree') => stake.mutate({ id: signalId, stake: { stance, amount_claw: Number(amount) } });
  return (
    <div className="mt-3 border-t border-slate-800 pt-3">
      <form
        className="flex flex-wrap items-end gap-2"
        aria-label={`Stake on ${title}`}
        onSubmit={(event) => {
          event.preventDefault();
          place('agree');
        }}
      >
        <Field label="Stake (CLAW, at least 1)">
          <ClawInput min="1" value={amount} onChange={(e) => setAmount(e.target.value)} className="w-36" />
        </Field>
        <Button type="submit" variant="secondary" size="sm" disabled={stake.isPending}>
          Agree
        </Button>
        <Button variant="secondary" size="sm" disabled={stake.isPending} onClick={() => place('disagree')}>
          Disagree
        </Button>
      </form>
      {stake.data ? (
        <p role="status" className="mt-2 text-sm text-emerald-300">
          Staked {claw(stake.data.amount_claw)} ({stake.data.stance}); your stake is now {claw(stake.data.total_claw)}.
        </p>
      ) : null}
      {stake.error ? (
        <div className="mt-2">
          <ActionError error={stake.error} title="The stake was refused" />
        </div>
      ) : null}
    </div>
  );
}

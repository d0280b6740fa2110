'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { useQueryInUrl } from '../use-query-in-url';
import { Card, ErrorState, Loading, shortAddress } from '../ui/states';
import { useSession } from '../use-session';
import { SIGNAL_SORTS, SIGNAL_TYPES, type SignalSort, type SignalType } from './market-constants';
import { ActionError, Badge, buttonClass, claw, inputClass, secondaryButtonClass, when } from './market-shared';
import { Pagination } from '../ui/pagination';

const PAGE_SIZE = 20;
const SORT_LABELS: Record<SignalSort, string> = { newest: 'Newest', most_staked: 'Most staked', confidence: 'Confidence' };

export interface SignalFilters {
  signalType: SignalType | '';
  sort: SignalSort;
  page: number;
}

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

export function SignalsFeed({ initial }: { initial: SignalFilters }) {
  const trpc = useTRPC();
  const session = useSession();
  const [filters, setFilters] = useState(initial);
  useQueryInUrl('/signals', {
    signal_type: filters.signalType,
    sort: filters.sort !== 'newest' && filters.sort,
    page: filters.page > 1 && filters.page,
  });

  const list = useQuery({
    ...trpc.signals.list.queryOptions({
      signalType: filters.signalType || undefined,
      sort: filters.sort,
      page: filters.page,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="flex min-w-0 flex-col gap-4 lg:col-span-2">
        <form className="grid gap-3 sm:grid-cols-2" aria-label="Filter signals" onSubmit={(event) => event.preventDefault()}>
          <label className="flex flex-col gap-1 text-sm">
            Signal type
            <select
              value={filters.signalType}
              onChange={(event) => setFilters({ ...filters, signalType: event.target.value as SignalType | '', page: 1 })}
              className={inputClass}
            >
              <option value="">Any type</option>
              {SIGNAL_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Sort by
            <select
              value={filters.sort}
              onChange={(event) => setFilters({ ...filters, sort: event.target.value as SignalSort, page: 1 })}
              className={inputClass}
            >
              {SIGNAL_SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {SORT_LABELS[sort]}
                </option>
              ))}
            </select>
          </label>
        </form>

        {list.isLoading ? <Loading label="Loading signals…" /> : null}
        {list.error ? <ErrorState error={list.error} title="Could not load signals" /> : null}
        {list.data ? (
          <>
            <p className="text-sm text-slate-400" aria-live="polite">
              {list.data.total.toLocaleString('en-US')} signal{list.data.total === 1 ? '' : 's'} · page {filters.page} of {pages}
            </p>
            {list.data.signals.length === 0 ? (
              <p className="rounded-md border border-slate-800 p-6 text-slate-300">No signals match these filters.</p>
            ) : (
              <ul className="flex flex-col gap-3" data-testid="signal-list">
                {list.data.signals.map((signal) => (
                  <SignalItem key={signal.signal_id} signal={signal} viewer={session.wallet} />
                ))}
              </ul>
            )}
            <Pagination page={filters.page} pages={pages} onPage={(page) => setFilters({ ...filters, page })} />
          </>
        ) : null}
      </div>
      <div className="min-w-0">
        <PublishCard signedIn={!!session.wallet} />
      </div>
    </div>
  );
}

function SignalItem({ signal, viewer }: { signal: SignalView; viewer: string | null }) {
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
            <span>{when(signal.created_at)}</span>
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
          <dt className="text-xs text-slate-400">
            Total ({signal.stake_count} stake{signal.stake_count === 1 ? '' : 's'})
          </dt>
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
        <label className="flex flex-col gap-1 text-sm">
          Stake (CLAW, at least 1)
          <input
            type="number"
            min="1"
            step="0.000001"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            className={`${inputClass} w-36`}
          />
        </label>
        <button type="submit" disabled={stake.isPending} className={secondaryButtonClass}>
          Agree
        </button>
        <button type="button" disabled={stake.isPending} onClick={() => place('disagree')} className={secondaryButtonClass}>
          Disagree
        </button>
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

function PublishCard({ signedIn }: { signedIn: boolean }) {
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
      <Card title="Publish a signal">
        <p className="text-sm text-slate-300">
          Sign in with your wallet to publish a signal or stake on one. A signal carries a stake of at least 1 CLAW, paid out when
          it resolves.
        </p>
      </Card>
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
        <label className="flex flex-col gap-1 text-sm">
          Title
          <input required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Reasoning
          <textarea
            required
            rows={4}
            maxLength={10_000}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Type
          <select value={type} onChange={(e) => setType(e.target.value as SignalType)} className={inputClass}>
            {SIGNAL_TYPES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Asset (symbol or token address)
          <input required maxLength={100} value={asset} onChange={(e) => setAsset(e.target.value)} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Confidence (%)
          <input
            required
            type="number"
            min="0"
            max="100"
            step="any"
            value={confidence}
            onChange={(e) => setConfidence(e.target.value)}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Your stake (CLAW, at least 1)
          <input
            required
            type="number"
            min="1"
            step="0.000001"
            inputMode="decimal"
            value={stakeAmount}
            onChange={(e) => setStakeAmount(e.target.value)}
            className={inputClass}
          />
        </label>
        <button type="submit" disabled={publish.isPending} className={buttonClass}>
          {publish.isPending ? 'Publishing…' : 'Publish signal'}
        </button>
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

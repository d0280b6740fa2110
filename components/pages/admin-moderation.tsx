'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Pagination } from '../ui/pagination';
import { Card, ErrorState, Loading, shortAddress } from '../ui/states';

// Admin console cards: signal resolution (with the payouts preview), skill moderation and failed
// webhook deliveries. Every action is audited on the server (server/admin/).

const field = 'rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base';
const button = 'rounded-md border px-2 py-1 text-sm disabled:opacity-50';
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US') : '—');

function Pager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / 25));
  if (pages <= 1) return null;
  return <Pagination page={page} pages={pages} onPage={onPage} className="mt-3" />;
}

type Outcome = 'correct' | 'incorrect' | 'expired';

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
                  <button
                    type="button"
                    onClick={() => setSelected(signal.signal_id)}
                    className={`${button} mt-2 border-emerald-700 hover:bg-emerald-950`}
                    aria-label={`Resolve ${signal.title}`}
                  >
                    Resolve…
                  </button>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
      {signals.data ? <Pager page={page} total={signals.data.total} onPage={setPage} /> : null}
    </Card>
  );
}

function ResolveSteps({ signalId, title, onClose }: { signalId: string; title: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
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
        <button
          type="button"
          onClick={() => {
            onClose();
            void queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
          }}
          className={`${button} mt-2 border-slate-700`}
        >
          Done
        </button>
      </div>
    );
  }
  return (
    <div className="mt-3 flex flex-col gap-3">
      <fieldset className="rounded-md border border-slate-800 p-3">
        <legend className="px-1 text-sm text-slate-300">Step 1: the outcome of “{title}”</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {(['correct', 'incorrect', 'expired'] as const).map((value) => (
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
            <button
              type="button"
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ id: signalId, outcome })}
              className="rounded-md bg-emerald-500 px-3 py-1 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
            >
              {resolve.isPending ? 'Resolving…' : `Confirm: resolve as ${outcome}`}
            </button>
            <button type="button" onClick={onClose} className={`${button} border-slate-700`}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {!outcome ? (
        <button type="button" onClick={onClose} className={`${button} self-start border-slate-700`}>
          Cancel
        </button>
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
    <div className="mt-2 relative overflow-x-auto" tabIndex={0}>
      <table className="w-full min-w-[420px] text-sm" data-testid="payouts">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-left text-slate-400">
            {['Wallet', 'Role', 'Staked', 'Gets'].map((label) => (
              <th key={label} scope="col" className="py-1 font-normal">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
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
        </tbody>
      </table>
    </div>
  );
}

export function SkillModeration() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [view, setView] = useState<'flagged' | 'hidden' | 'all'>('flagged');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [reason, setReason] = useState('');
  const skills = useQuery({
    ...trpc.admin.skills.queryOptions({ view, search: search || undefined, page }),
    placeholderData: keepPreviousData,
  });
  const done = () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
  const hide = useMutation(trpc.admin.hideSkill.mutationOptions({ onSuccess: done }));
  const unhide = useMutation(trpc.admin.unhideSkill.mutationOptions({ onSuccess: done }));
  const approve = useMutation(trpc.admin.approveSkill.mutationOptions({ onSuccess: done }));
  const reject = useMutation(trpc.admin.rejectSkill.mutationOptions({ onSuccess: done }));
  const why = reason.trim() ? { reason: reason.trim() } : {};
  const failed = [hide, unhide, approve, reject].find((mutation) => mutation.error)?.error;
  return (
    <Card title="Skills">
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="flex flex-col gap-1 text-sm">
          Show
          <select
            value={view}
            onChange={(event) => {
              setView(event.target.value as typeof view);
              setPage(1);
            }}
            className={field}
          >
            <option value="flagged">Flagged by the safety scan</option>
            <option value="hidden">Hidden</option>
            <option value="all">All skills</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Search skills
          <input
            type="search"
            value={search}
            maxLength={100}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
            className={field}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Reason (optional, kept in the audit log)
          <input value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} className={field} />
        </label>
      </div>
      {skills.isLoading ? <Loading label="Loading skills…" /> : null}
      {skills.error ? <ErrorState error={skills.error} title="Could not load skills" /> : null}
      {failed ? <ErrorState error={failed} title="The action failed" /> : null}
      {skills.data ? (
        skills.data.skills.length === 0 ? (
          <p className="mt-3 text-slate-300">{view === 'flagged' ? 'No skills wait for review.' : 'No skills here.'}</p>
        ) : (
          <ul className="mt-3 flex flex-col gap-3" data-testid="admin-skills">
            {skills.data.skills.map((skill) => (
              <li key={skill.id} className="rounded-md border border-slate-800 p-3" data-skill-id={skill.id}>
                <p className="font-medium">{skill.name}</p>
                <p className="text-sm text-slate-400">
                  {skill.category} ·{' '}
                  <span data-testid="skill-state">
                    {skill.status}
                    {skill.hidden_at ? ', hidden' : ''}
                  </span>{' '}
                  · by <span className="font-mono">{shortAddress(skill.author_wallet)}</span> · {when(skill.created_at)}
                </p>
                {skill.flag_reasons.length ? (
                  <ul className="mt-1 list-inside list-disc text-sm text-amber-200">
                    {skill.flag_reasons.map((flag) => (
                      <li key={flag}>{flag}</li>
                    ))}
                  </ul>
                ) : null}
                <div className="mt-2 flex flex-wrap gap-2">
                  {skill.status === 'draft' ? (
                    <>
                      <button
                        type="button"
                        onClick={() => {
                          if (window.confirm(`Approve ${skill.name}? It becomes active and public.`))
                            approve.mutate({ id: skill.id, ...why });
                        }}
                        className={`${button} border-emerald-700 hover:bg-emerald-950`}
                        aria-label={`Approve ${skill.name}`}
                      >
                        Approve
                      </button>
                      <button
                        type="button"
                        onClick={() => {
                          if (window.confirm(`Reject ${skill.name}? It is removed (a publishing stake goes back to its author).`))
                            reject.mutate({ id: skill.id, ...why });
                        }}
                        className={`${button} border-rose-700 text-rose-200 hover:bg-rose-950`}
                        aria-label={`Reject ${skill.name}`}
                      >
                        Reject
                      </button>
                    </>
                  ) : null}
                  {skill.hidden_at ? (
                    <button
                      type="button"
                      onClick={() => unhide.mutate({ id: skill.id, ...why })}
                      className={`${button} border-emerald-700 hover:bg-emerald-950`}
                      aria-label={`Unhide ${skill.name}`}
                    >
                      Unhide
                    </button>
                  ) : (
                    <button
                      type="button"
                      onClick={() => {
                        if (window.confirm(`Hide ${skill.name} from every public list?`)) hide.mutate({ id: skill.id, ...why });
                      }}
                      className={`${button} border-amber-700 hover:bg-amber-950`}
                      aria-label={`Hide ${skill.name}`}
                    >
                      Hide
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {skills.data ? <Pager page={page} total={skills.data.total} onPage={setPage} /> : null}
    </Card>
  );
}

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
          <div className="relative overflow-x-auto" tabIndex={0}>
            <table className="w-full min-w-[720px] text-sm" data-testid="failed-deliveries">
              <caption className="sr-only">Webhook deliveries whose attempts all failed</caption>
              <thead>
                <tr className="text-left text-slate-400">
                  {['Webhook', 'Owner', 'Event', 'Attempts', 'Last error', 'Last attempt'].map((label) => (
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
                    <td className="py-2">{when(row.last_attempt_at)}</td>
                    <td className="py-2 text-right">
                      <button
                        type="button"
                        disabled={redeliver.isPending}
                        onClick={() => redeliver.mutate({ deliveryId: row.id })}
                        className={`${button} border-slate-700 hover:bg-slate-800`}
                      >
                        Redeliver
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      {deliveries.data ? <Pager page={page} total={deliveries.data.total} onPage={setPage} /> : null}
    </Card>
  );
}

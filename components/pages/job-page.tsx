'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { Card, ErrorState, Loading, shortAddress } from '../ui/states';
import { useSession } from '../use-session';
import { ActionError, Badge, buttonClass, claw, inputClass, jobStatusTone, secondaryButtonClass, when } from './market-shared';

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

export function JobPage({ jobId }: { jobId: string }) {
  const trpc = useTRPC();
  const session = useSession();
  const query = useQuery(trpc.jobs.get.queryOptions({ id: jobId }, { retry: false }));
  if (query.isLoading) return <Loading label="Loading job…" />;
  if (query.error) {
    const missing = query.error.data?.code === 'NOT_FOUND' || query.error.data?.code === 'BAD_REQUEST';
    return (
      <div className="flex flex-col gap-3">
        <ErrorState error={query.error} title={missing ? 'No job with this id' : 'Could not load this job'} />
        <p>
          <Link href="/jobs" className="underline">
            Back to the jobs board
          </Link>
        </p>
      </div>
    );
  }
  const job = query.data!;
  const viewer = session.wallet;
  const isPoster = same(viewer, job.requested_by_wallet);
  const winner = job.bids.find((b) => b.bid_id === job.accepted_bid_id) ?? null;
  const isWinner = same(viewer, winner?.bidder_wallet);
  const takingBids = job.status === 'open' || job.status === 'bid';
  const myBid = job.bids.find((b) => same(b.bidder_wallet, viewer));

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
        <Card title="Job">
          <p className="whitespace-pre-wrap break-words text-slate-200">{job.description}</p>
          <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2" data-testid="job-facts">
            <div>
              <dt className="text-slate-400">Status</dt>
              <dd data-testid="job-status">
                <Badge tone={jobStatusTone(job.status)}>{job.status}</Badge>
              </dd>
            </div>
            <div>
              <dt className="text-slate-400">{bountyLabel(job.status)}</dt>
              <dd data-testid="job-bounty">{claw(job.bounty_claw)}</dd>
            </div>
            {job.status === 'completed' && job.fee_claw !== null ? (
              <div>
                <dt className="text-slate-400">Paid to the bidder</dt>
                <dd data-testid="job-paid">
                  {claw(paidToBidder(job.bounty_claw, job.fee_claw))}
                  {winner ? (
                    <span className="font-mono text-xs text-slate-400"> · {shortAddress(winner.bidder_wallet)}</span>
                  ) : null}
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="text-slate-400">Poster</dt>
              <dd className="break-all font-mono text-xs" data-testid="job-poster">
                {job.requested_by_wallet}
              </dd>
            </div>
            <div>
              <dt className="text-slate-400">Required skill</dt>
              <dd>{job.required_skill ?? 'any'}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Posted</dt>
              <dd>{when(job.created_at)}</dd>
            </div>
            <div>
              <dt className="text-slate-400">{job.status === 'completed' ? 'Completed' : 'Expires'}</dt>
              <dd>{job.completed_at ? when(job.completed_at) : when(job.expires_at)}</dd>
            </div>
            {job.fee_claw !== null ? (
              <div>
                <dt className="text-slate-400">Platform fee</dt>
                <dd data-testid="job-fee">{claw(job.fee_claw)}</dd>
              </div>
            ) : null}
          </dl>
          {job.result !== null && job.result !== undefined ? (
            <div className="mt-4">
              <h3 className="text-sm font-semibold">Delivered result</h3>
              <pre className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-950 p-3 text-xs">
                {typeof job.result === 'string' ? job.result : JSON.stringify(job.result, null, 2)}
              </pre>
            </div>
          ) : null}
        </Card>
        <BidsCard job={job} isPoster={isPoster && takingBids} />
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        {!viewer ? (
          <Card title="Take part">
            <p className="text-sm text-slate-300">Sign in with your wallet to bid on this job.</p>
          </Card>
        ) : isPoster ? (
          <Card title="Your job">
            <p className="text-sm text-slate-300">
              {takingBids
                ? 'You posted this job: accept a bid to start the work (the bounty stays in escrow).'
                : 'You posted this job.'}
            </p>
          </Card>
        ) : takingBids && !myBid ? (
          <BidForm jobId={job.job_id} bounty={job.bounty_claw} />
        ) : myBid ? (
          <Card title="Your bid">
            <p className="text-sm text-slate-300">
              You bid {claw(myBid.bid_claw)}; it is <strong>{myBid.status}</strong>.
            </p>
          </Card>
        ) : (
          <Card title="Take part">
            <p className="text-sm text-slate-300">This job no longer takes bids.</p>
          </Card>
        )}
        {isWinner && job.status === 'executing' ? <SubmitForm jobId={job.job_id} /> : null}
        <p>
          <Link href="/jobs" className="text-sm underline">
            Back to the jobs board
          </Link>
        </p>
      </div>
    </div>
  );
}

/** What the bounty is at each stage: held in escrow, paid out at completion, refunded at expiry. */
function bountyLabel(status: string): string {
  if (status === 'completed') return 'Bounty (paid out)';
  if (status === 'expired') return 'Bounty (refunded to the poster)';
  return 'Bounty (in escrow)';
}

/** The bounty less the platform fee, counted in micro-CLAW so no float error shows. */
export function paidToBidder(bountyClaw: number, feeClaw: number): number {
  return (Math.round(bountyClaw * 1e6) - Math.round(feeClaw * 1e6)) / 1e6;
}

type JobView = {
  job_id: string;
  bids: { bid_id: string; bidder_wallet: string; bid_claw: number; eta_seconds: number; proposal: string; status: string }[];
};

function duration(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.round((seconds / 3600) * 10) / 10} h`;
  return `${Math.round((seconds / 86400) * 10) / 10} days`;
}

function BidsCard({ job, isPoster }: { job: JobView; isPoster: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accept = useMutation(
    trpc.jobs.accept.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.jobs.get.queryKey() }),
    }),
  );
  return (
    <Card title={`Bids (${job.bids.length})`}>
      {job.bids.length === 0 ? (
        <p className="text-sm text-slate-300">No bids yet.</p>
      ) : (
        <ul className="flex flex-col gap-3" data-testid="bid-list">
          {job.bids.map((b) => (
            <li key={b.bid_id} className="rounded-md border border-slate-800 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono text-xs" title={b.bidder_wallet}>
                  {shortAddress(b.bidder_wallet)}
                </span>
                <span className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-semibold tabular-nums">{claw(b.bid_claw)}</span>
                  <span className="text-slate-400">in {duration(b.eta_seconds)}</span>
                  <Badge tone={b.status === 'accepted' ? 'emerald' : b.status === 'rejected' ? 'rose' : 'slate'}>
                    {b.status}
                  </Badge>
                </span>
              </div>
              <p className="mt-2 whitespace-pre-wrap break-words text-sm text-slate-300">{b.proposal}</p>
              {isPoster && b.status === 'pending' ? (
                <button
                  type="button"
                  className={`mt-2 ${secondaryButtonClass}`}
                  disabled={accept.isPending}
                  onClick={() => accept.mutate({ id: job.job_id, accept: { bid_id: b.bid_id } })}
                  aria-label={`Accept the bid from ${b.bidder_wallet}`}
                >
                  Accept bid
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {accept.error ? <ActionError error={accept.error} title="The bid was not accepted" /> : null}
    </Card>
  );
}

function BidForm({ jobId, bounty }: { jobId: string; bounty: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(String(bounty));
  const [hours, setHours] = useState('24');
  const [proposal, setProposal] = useState('');
  const bid = useMutation(
    trpc.jobs.bid.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.jobs.get.queryKey() }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    bid.mutate({
      id: jobId,
      bid: { bid_claw: Number(amount), eta_seconds: Math.max(1, Math.round(Number(hours) * 3600)), proposal },
    });
  };
  return (
    <Card title="Bid on this job">
      <form className="flex flex-col gap-3" aria-label="Bid on this job" onSubmit={submit}>
        <label className="flex flex-col gap-1 text-sm">
          Your price (CLAW, at most the bounty)
          <input
            required
            type="number"
            min="0.000001"
            step="0.000001"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Delivery time (hours)
          <input
            required
            type="number"
            min="0.01"
            step="0.01"
            inputMode="decimal"
            value={hours}
            onChange={(e) => setHours(e.target.value)}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Proposal
          <textarea
            required
            maxLength={5000}
            rows={4}
            value={proposal}
            onChange={(e) => setProposal(e.target.value)}
            className={inputClass}
          />
        </label>
        <button type="submit" disabled={bid.isPending} className={buttonClass}>
          {bid.isPending ? 'Bidding…' : 'Place bid'}
        </button>
      </form>
      {bid.error ? <ActionError error={bid.error} title="The bid was refused" /> : null}
    </Card>
  );
}

function SubmitForm({ jobId }: { jobId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [result, setResult] = useState('');
  const submitJob = useMutation(
    trpc.jobs.submit.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.jobs.get.queryKey() }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let value: unknown = result;
    try {
      value = JSON.parse(result);
    } catch {
      // plain text is a valid result too
    }
    submitJob.mutate({ id: jobId, submit: { result: value } });
  };
  return (
    <Card title="Deliver the result">
      <form className="flex flex-col gap-3" aria-label="Deliver the result" onSubmit={submit}>
        <label className="flex flex-col gap-1 text-sm">
          Result (JSON or plain text)
          <textarea required rows={6} value={result} onChange={(e) => setResult(e.target.value)} className={inputClass} />
        </label>
        <button type="submit" disabled={submitJob.isPending} className={buttonClass}>
          {submitJob.isPending ? 'Submitting…' : 'Submit result'}
        </button>
      </form>
      {submitJob.data ? (
        <p role="status" className="mt-3 text-sm text-emerald-300">
          Delivered: {claw(submitJob.data.paid_claw)} paid to you (fee {claw(submitJob.data.fee_claw)}).
        </p>
      ) : null}
      {submitJob.error ? <ActionError error={submitJob.error} title="The result was refused" /> : null}
    </Card>
  );
}

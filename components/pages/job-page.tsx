'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '../trpc';
import { useSession } from '../use-session';
import { Badge } from '../ui/badge';
import { claw, formatUtc, shortAddress } from '../ui/format';
import { Card, ErrorState, Loading, SignInNote } from '../ui/states';
import { BidForm, BidsCard, SubmitForm } from './job-actions';
import { jobStatusTone } from './job-status';

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
              <dd>{formatUtc(job.created_at)}</dd>
            </div>
            <div>
              <dt className="text-slate-400">{job.status === 'completed' ? 'Completed' : 'Expires'}</dt>
              <dd>{job.completed_at ? formatUtc(job.completed_at) : formatUtc(job.expires_at)}</dd>
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
          <SignInNote title="Take part">Sign in with your wallet to bid on this job.</SignInNote>
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
          <SignInNote title="Take part">This job no longer takes bids.</SignInNote>
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

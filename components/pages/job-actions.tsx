'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { Badge } from '../ui/badge';
import { Button, ClawInput, Field, Input, TextArea } from '../ui/form';
import { claw, shortAddress } from '../ui/format';
import { ActionError, Card } from '../ui/states';

// What a signed-in reader does on a job's page: the poster accepts a bid, others bid, the winning
// bidder delivers the result.

type JobView = {
  job_id: string;
  bids: { bid_id: string; bidder_wallet: string; bid_claw: number; eta_seconds: number; proposal: string; status: string }[];
};

function duration(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.round((seconds / 3600) * 10) / 10} h`;
  return `${Math.round((seconds / 86400) * 10) / 10} days`;
}

export function BidsCard({ job, isPoster }: { job: JobView; isPoster: boolean }) {
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
                <Button
                  variant="secondary"
                  size="sm"
                  className="mt-2"
                  disabled={accept.isPending}
                  onClick={() => accept.mutate({ id: job.job_id, accept: { bid_id: b.bid_id } })}
                  aria-label={`Accept the bid from ${b.bidder_wallet}`}
                >
                  Accept bid
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {accept.error ? <ActionError error={accept.error} title="The bid was not accepted" /> : null}
    </Card>
  );
}

export function BidForm({ jobId, bounty }: { jobId: string; bounty: number }) {
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
        <Field label="Your price (CLAW, at most the bounty)">
          <ClawInput required value={amount} onChange={(e) => setAmount(e.target.value)} />
        </Field>
        <Field label="Delivery time (hours)">
          <Input
            required
            type="number"
            min="0.01"
            step="0.01"
            inputMode="decimal"
            value={hours}
            onChange={(e) => setHours(e.target.value)}
          />
        </Field>
        <Field label="Proposal">
          <TextArea required maxLength={5000} rows={4} value={proposal} onChange={(e) => setProposal(e.target.value)} />
        </Field>
        <Button type="submit" disabled={bid.isPending}>
          {bid.isPending ? 'Bidding…' : 'Place bid'}
        </Button>
      </form>
      {bid.error ? <ActionError error={bid.error} title="The bid was refused" /> : null}
    </Card>
  );
}

export function SubmitForm({ jobId }: { jobId: string }) {
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
        <Field label="Result (JSON or plain text)">
          <TextArea required rows={6} value={result} onChange={(e) => setResult(e.target.value)} />
        </Field>
        <Button type="submit" disabled={submitJob.isPending}>
          {submitJob.isPending ? 'Submitting…' : 'Submit result'}
        </Button>
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

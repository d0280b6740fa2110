'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { useQueryInUrl } from '../use-query-in-url';
import { Card, ErrorState, Loading, shortAddress } from '../ui/states';
import { useSession } from '../use-session';
import { JOB_STATUSES, type JobStatus } from './market-constants';
import { ActionError, Badge, buttonClass, claw, inputClass, jobStatusTone, when } from './market-shared';
import { Pagination } from '../ui/pagination';

const PAGE_SIZE = 20;

export interface JobFilters {
  status: JobStatus | '';
  skill: string;
  q: string;
  page: number;
}

export function JobsBoard({ initial }: { initial: JobFilters }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(initial);
  const [qText, setQText] = useState(initial.q);
  const [skillText, setSkillText] = useState(initial.skill);

  // Debounce typing; keep the URL in step so a filtered view can be shared.
  useEffect(() => {
    const id = setTimeout(
      () =>
        setFilters((f) => (f.q === qText && f.skill === skillText ? f : { ...f, q: qText, skill: skillText.trim(), page: 1 })),
      300,
    );
    return () => clearTimeout(id);
  }, [qText, skillText]);
  useQueryInUrl('/jobs', {
    status: filters.status,
    skill: filters.skill,
    q: filters.q,
    page: filters.page > 1 && filters.page,
  });

  const list = useQuery({
    ...trpc.jobs.list.queryOptions({
      status: filters.status || 'all',
      skill: filters.skill || undefined,
      q: filters.q || undefined,
      page: filters.page,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="flex min-w-0 flex-col gap-4 lg:col-span-2">
        <form className="grid gap-3 sm:grid-cols-3" role="search" onSubmit={(event) => event.preventDefault()}>
          <label className="flex flex-col gap-1 text-sm">
            Search jobs
            <input
              type="search"
              value={qText}
              onChange={(event) => setQText(event.target.value)}
              className={inputClass}
              placeholder="words in title or description"
              maxLength={200}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Status
            <select
              value={filters.status}
              onChange={(event) => setFilters({ ...filters, status: event.target.value as JobStatus | '', page: 1 })}
              className={inputClass}
            >
              <option value="">Any status</option>
              {JOB_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Required skill
            <input
              type="text"
              value={skillText}
              onChange={(event) => setSkillText(event.target.value)}
              className={inputClass}
              placeholder="e.g. solidity-audit"
              maxLength={100}
            />
          </label>
        </form>

        {list.isLoading ? <Loading label="Loading jobs…" /> : null}
        {list.error ? <ErrorState error={list.error} title="Could not load jobs" /> : null}
        {list.data ? (
          <>
            <p className="text-sm text-slate-400" aria-live="polite">
              {list.data.total.toLocaleString('en-US')} job{list.data.total === 1 ? '' : 's'} · page {filters.page} of {pages}
            </p>
            {list.data.jobs.length === 0 ? (
              <p className="rounded-md border border-slate-800 p-6 text-slate-300">No jobs match these filters.</p>
            ) : (
              <ul className="flex flex-col gap-3" data-testid="job-list">
                {list.data.jobs.map((job) => (
                  <li key={job.job_id} className="rounded-lg border border-slate-800 bg-slate-900/60 p-4">
                    <div className="flex flex-wrap items-start justify-between gap-3">
                      <div className="min-w-0 flex-1">
                        <Link href={`/jobs/${job.job_id}`} className="break-words font-semibold hover:underline">
                          {job.title}
                        </Link>
                        <p className="mt-1 line-clamp-2 break-words text-sm text-slate-300">{job.description}</p>
                      </div>
                      <div className="text-right">
                        <p className="font-semibold tabular-nums">{claw(job.bounty_claw)}</p>
                        <p className="text-xs text-slate-400">bounty</p>
                      </div>
                    </div>
                    <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-300">
                      <Badge tone={jobStatusTone(job.status)}>{job.status}</Badge>
                      {job.required_skill ? <Badge>skill {job.required_skill}</Badge> : null}
                      <span>
                        {job.bid_count} bid{job.bid_count === 1 ? '' : 's'}
                      </span>
                      <span>by {shortAddress(job.requested_by_wallet)}</span>
                      <span>expires {when(job.expires_at)}</span>
                    </p>
                  </li>
                ))}
              </ul>
            )}
            <Pagination page={filters.page} pages={pages} onPage={(page) => setFilters({ ...filters, page })} />
          </>
        ) : null}
      </div>
      <div className="min-w-0">
        <PostJobCard />
      </div>
    </div>
  );
}

/** A datetime-local value (the browser's local time) seven days from now. */
function inAWeek(): string {
  const date = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  date.setSeconds(0, 0);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function PostJobCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [skill, setSkill] = useState('');
  const [bounty, setBounty] = useState('10');
  const [expires, setExpires] = useState('');
  const post = useMutation(
    trpc.jobs.post.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() }),
    }),
  );
  useEffect(() => setExpires(inAWeek()), []);

  if (!session.wallet) {
    return (
      <Card title="Post a job">
        <p className="text-sm text-slate-300">
          Sign in with your wallet to post a job. Its bounty moves from your CLAW balance into escrow until you accept a bid and
          the work is delivered.
        </p>
      </Card>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresAt = expires ? new Date(expires) : null;
    post.mutate({
      title,
      description,
      required_skill: skill.trim() || undefined,
      bounty_claw: Number(bounty),
      expires_at: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt.toISOString() : undefined,
    });
  };
  return (
    <Card title="Post a job">
      <form className="flex flex-col gap-3" aria-label="Post a job" onSubmit={submit}>
        <label className="flex flex-col gap-1 text-sm">
          Title
          <input required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Description
          <textarea
            required
            maxLength={5000}
            rows={4}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Required skill (optional)
          <input maxLength={100} value={skill} onChange={(e) => setSkill(e.target.value)} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Bounty (CLAW)
          <input
            required
            type="number"
            min="0.000001"
            step="0.000001"
            inputMode="decimal"
            value={bounty}
            onChange={(e) => setBounty(e.target.value)}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Expires (your local time)
          <input type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} className={inputClass} />
        </label>
        <button type="submit" disabled={post.isPending} className={buttonClass}>
          {post.isPending ? 'Posting…' : 'Post job'}
        </button>
      </form>
      {post.data ? (
        <p role="status" className="mt-3 text-sm text-emerald-300" data-testid="job-posted">
          Posted: {claw(post.data.bounty_claw)} in escrow.{' '}
          <Link href={`/jobs/${post.data.job_id}`} className="underline">
            Open the job
          </Link>
        </p>
      ) : null}
      {post.error ? <ActionError error={post.error} title="The job was not posted" /> : null}
    </Card>
  );
}

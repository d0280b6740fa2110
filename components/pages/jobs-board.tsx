'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { JOB_STATUSES, type JobStatus } from '@/server/schemas/enums';
import { useTRPC } from '../trpc';
import { useDebounced } from '../use-debounced';
import { useQueryInUrl } from '../use-query-in-url';
import { Badge } from '../ui/badge';
import { Field, Input, Select } from '../ui/form';
import { claw, formatUtc, plural, shortAddress } from '../ui/format';
import { PagedList } from '../ui/list';
import { jobStatusTone } from './job-status';
import { PostJobCard } from './post-job';

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
  useDebounced(`${qText}\n${skillText}`, () =>
    setFilters((f) => (f.q === qText && f.skill === skillText ? f : { ...f, q: qText, skill: skillText.trim(), page: 1 })),
  );
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

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="flex min-w-0 flex-col gap-4 lg:col-span-2">
        <form className="grid gap-3 sm:grid-cols-3" role="search" onSubmit={(event) => event.preventDefault()}>
          <Field label="Search jobs">
            <Input
              type="search"
              value={qText}
              onChange={(event) => setQText(event.target.value)}
              placeholder="words in title or description"
              maxLength={200}
            />
          </Field>
          <Field label="Status">
            <Select
              value={filters.status}
              onChange={(event) => setFilters({ ...filters, status: event.target.value as JobStatus | '', page: 1 })}
              empty="Any status"
              options={JOB_STATUSES}
            />
          </Field>
          <Field label="Required skill">
            <Input
              type="text"
              value={skillText}
              onChange={(event) => setSkillText(event.target.value)}
              placeholder="e.g. solidity-audit"
              maxLength={100}
            />
          </Field>
        </form>

        <PagedList
          query={list}
          rows={(data) => data.jobs}
          noun="job"
          page={filters.page}
          pageSize={PAGE_SIZE}
          onPage={(page) => setFilters({ ...filters, page })}
          empty="No jobs match these filters."
        >
          {(jobs) => (
            <ul className="flex flex-col gap-3" data-testid="job-list">
              {jobs.map((job) => (
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
                    <span>{plural(job.bid_count, 'bid')}</span>
                    <span>by {shortAddress(job.requested_by_wallet)}</span>
                    <span>expires {formatUtc(job.expires_at)}</span>
                  </p>
                </li>
              ))}
            </ul>
          )}
        </PagedList>
      </div>
      <div className="min-w-0">
        <PostJobCard />
      </div>
    </div>
  );
}

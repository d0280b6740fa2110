'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { useSession } from '../use-session';
import { Button, ClawInput, Field, Input, TextArea } from '../ui/form';
import { claw } from '../ui/format';
import { ActionError, Card, SignInNote } from '../ui/states';

/** A datetime-local value (the browser's local time) seven days from now. */
function inAWeek(): string {
  const date = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  date.setSeconds(0, 0);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The jobs board's "Post a job" form (jobs.post): the bounty moves into escrow. */
export function PostJobCard() {
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
      <SignInNote title="Post a job">
        Sign in with your wallet to post a job. Its bounty moves from your CLAW balance into escrow until you accept a bid and the
        work is delivered.
      </SignInNote>
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
        <Field label="Title">
          <Input required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
        </Field>
        <Field label="Description">
          <TextArea required maxLength={5000} rows={4} value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field label="Required skill (optional)">
          <Input maxLength={100} value={skill} onChange={(e) => setSkill(e.target.value)} />
        </Field>
        <Field label="Bounty (CLAW)">
          <ClawInput required value={bounty} onChange={(e) => setBounty(e.target.value)} />
        </Field>
        <Field label="Expires (your local time)">
          <Input type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
        </Field>
        <Button type="submit" disabled={post.isPending}>
          {post.isPending ? 'Posting…' : 'Post job'}
        </Button>
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

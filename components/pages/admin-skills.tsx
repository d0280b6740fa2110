'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Button, Field, Input, Select } from '../ui/form';
import { formatDateTime, shortAddress } from '../ui/format';
import { PagerIfMany } from '../ui/list';
import { Card, ErrorState, Loading } from '../ui/states';

// The admin console's skill moderation: drafts the safety scan flagged (approve, reject) and hiding
// skills from every public list (audited on the server).

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
        <Field label="Show">
          <Select
            value={view}
            onChange={(event) => {
              setView(event.target.value as typeof view);
              setPage(1);
            }}
          >
            <option value="flagged">Flagged by the safety scan</option>
            <option value="hidden">Hidden</option>
            <option value="all">All skills</option>
          </Select>
        </Field>
        <Field label="Search skills">
          <Input
            type="search"
            value={search}
            maxLength={100}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </Field>
        <Field label="Reason (optional, kept in the audit log)">
          <Input value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
        </Field>
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
                  · by <span className="font-mono">{shortAddress(skill.author_wallet)}</span> · {formatDateTime(skill.created_at)}
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
                      <Button
                        variant="confirm"
                        size="xs"
                        onClick={() => {
                          if (window.confirm(`Approve ${skill.name}? It becomes active and public.`))
                            approve.mutate({ id: skill.id, ...why });
                        }}
                        aria-label={`Approve ${skill.name}`}
                      >
                        Approve
                      </Button>
                      <Button
                        variant="danger"
                        size="xs"
                        onClick={() => {
                          if (window.confirm(`Reject ${skill.name}? It is removed (a publishing stake goes back to its author).`))
                            reject.mutate({ id: skill.id, ...why });
                        }}
                        aria-label={`Reject ${skill.name}`}
                      >
                        Reject
                      </Button>
                    </>
                  ) : null}
                  {skill.hidden_at ? (
                    <Button
                      variant="confirm"
                      size="xs"
                      onClick={() => unhide.mutate({ id: skill.id, ...why })}
                      aria-label={`Unhide ${skill.name}`}
                    >
                      Unhide
                    </Button>
                  ) : (
                    <Button
                      variant="warning"
                      size="xs"
                      onClick={() => {
                        if (window.confirm(`Hide ${skill.name} from every public list?`)) hide.mutate({ id: skill.id, ...why });
                      }}
                      aria-label={`Hide ${skill.name}`}
                    >
                      Hide
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {skills.data ? <PagerIfMany pageSize={25} page={page} total={skills.data.total} onPage={setPage} /> : null}
    </Card>
  );
}

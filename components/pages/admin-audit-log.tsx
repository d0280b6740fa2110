'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Button } from '../ui/form';
import { claw, formatDateTime, shortAddress } from '../ui/format';
import { Card, ErrorState, Loading } from '../ui/states';
import { DataTable } from '../ui/table';

// /admin/audit: every admin action, newest first, with a sentence and the labelled details.

export function AuditLog() {
  const trpc = useTRPC();
  const [before, setBefore] = useState<string | undefined>(undefined);
  const log = useQuery({ ...trpc.admin.auditLog.queryOptions({ before, limit: 50 }), placeholderData: keepPreviousData });
  if (log.isLoading) return <Loading label="Loading the audit log…" />;
  if (log.error) return <ErrorState error={log.error} title="Could not load the audit log" />;
  const rows = log.data!;
  return (
    <Card>
      {rows.length === 0 ? (
        <p className="text-slate-300">No admin actions yet.</p>
      ) : (
        <DataTable
          caption="Admin actions, newest first"
          columns={['When', 'Who', 'What', 'Target', 'Details']}
          minWidth="min-w-[640px]"
          testId="audit-log"
        >
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-slate-800">
              <td className="py-2">{formatDateTime(row.created_at)}</td>
              <td className="py-2 font-mono text-xs">{shortAddress(row.admin_wallet)}</td>
              <td className="py-2 font-mono">{row.action}</td>
              <td className="py-2">
                {row.target_type} <span className="font-mono text-xs">{row.target_id.slice(0, 8)}</span>
              </td>
              <td className="py-2" data-testid="audit-details">
                <AuditDetails action={row.action} details={row.details} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <nav aria-label="Pagination" className="mt-3 flex gap-3 text-sm">
        {before ? (
          <Button variant="secondary" size="sm" onClick={() => setBefore(undefined)}>
            Newest
          </Button>
        ) : null}
        {rows.length === 50 ? (
          <Button variant="secondary" size="sm" onClick={() => setBefore(rows.at(-1)!.id)}>
            Older
          </Button>
        ) : null}
      </nav>
    </Card>
  );
}

/** Labels for the keys admin actions write into `details` (server/admin/*); others are shown humanised. */
const DETAIL_LABELS: Record<string, string> = {
  handle: 'Agent',
  previous_status: 'Status before',
  reason: 'Reason',
  outcome: 'Outcome',
  fee_claw: 'Platform fee',
  payees: 'Stakers paid',
  name: 'Skill',
  flag_reasons: 'Flagged for',
  webhook_id: 'Webhook',
  url: 'URL',
  owner_wallet: 'Owner',
  attempts: 'Attempts so far',
};

function detailValue(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => detailValue('', item)).join(', ');
  if (key === 'handle' && typeof value === 'string') return `@${value}`;
  if (key.endsWith('_claw') && typeof value === 'number') return claw(value);
  if (key.endsWith('_wallet') && typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return shortAddress(value);
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${humanise(k)}: ${detailValue(k, v)}`)
      .join('; ');
  }
  return String(value);
}

function humanise(key: string): string {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A one-line account of the action, e.g. "Paused @market-maker (was active)". */
export function auditSentence(action: string, details: Record<string, unknown>): string {
  const text = (key: string) => (typeof details[key] === 'string' ? (details[key] as string) : null);
  const skill = text('name') ? `the skill ${text('name')}` : 'a skill';
  switch (action) {
    case 'agent.pause':
    case 'agent.unpause':
      return `${action === 'agent.pause' ? 'Paused' : 'Unpaused'} ${text('handle') ? `@${text('handle')}` : 'an agent'}${
        text('previous_status') ? ` (was ${text('previous_status')})` : ''
      }`;
    case 'signal.resolve':
      return `Resolved the signal as ${text('outcome') ?? 'decided'}`;
    case 'skill.hide':
      return `Hid ${skill}`;
    case 'skill.unhide':
      return `Showed ${skill} again`;
    case 'skill.approve':
      return `Approved ${skill}, held by the safety scan`;
    case 'skill.reject':
      return `Rejected ${skill}, held by the safety scan`;
    case 'webhook.redeliver':
      return 'Redelivered a failed webhook delivery';
    default:
      return humanise(action.replace('.', ' '));
  }
}

function AuditDetails({ action, details }: { action: string; details: Record<string, unknown> }) {
  const entries = Object.entries(details ?? {});
  return (
    <div className="flex flex-col gap-1">
      <p>{auditSentence(action, details ?? {})}</p>
      {entries.length > 0 ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
          {entries.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-slate-400">{DETAIL_LABELS[key] ?? humanise(key)}</dt>
              <dd className="break-all">{detailValue(key, value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSignMessage } from 'wagmi';
import { useTRPC } from '../trpc';
import { Button, Field, Input, Select } from '../ui/form';
import { claw, formatDateTime } from '../ui/format';
import { Card, ErrorState, Loading } from '../ui/states';
import { useSession } from '../use-session';

// /me: the spend policies of the wallet's API keys and the spends waiting for its signed approval
// (docs/payments.md "Spend policies"). Approving or rejecting signs the approval's exact text with the wallet.

interface Policy {
  allowed_payees: string[] | null;
  max_claw_per_call: number | null;
  approval_above_claw: number | null;
}

export function policySummary(policy: Policy): string {
  const parts: string[] = [];
  if (policy.allowed_payees) parts.push(`payees: ${policy.allowed_payees.length ? policy.allowed_payees.join(', ') : 'none'}`);
  if (policy.max_claw_per_call !== null) parts.push(`max ${claw(policy.max_claw_per_call)} per call`);
  if (policy.approval_above_claw !== null) parts.push(`approval above ${claw(policy.approval_above_claw)}`);
  return parts.length ? parts.join(' · ') : 'none';
}

const amount = (text: string): number | null => (text.trim() === '' ? null : Number(text));

export function SpendPolicies() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.me.apiKeys.queryOptions());
  const update = useMutation(
    trpc.me.updateApiKey.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.me.apiKeys.queryKey() }),
    }),
  );
  const [keyId, setKeyId] = useState('');
  const [payees, setPayees] = useState('');
  const [maxPerCall, setMaxPerCall] = useState('');
  const [approvalAbove, setApprovalAbove] = useState('');
  const active = keys.data?.keys.filter((key) => key.status === 'active') ?? [];
  return (
    <Card title="Spend policies">
      {keys.isLoading ? <Loading label="Loading keys…" /> : null}
      {keys.error ? <ErrorState error={keys.error} title="Could not load keys" /> : null}
      {active.length === 0 && keys.data ? <p className="text-slate-300">No active keys.</p> : null}
      {active.length ? (
        <ul className="flex flex-col gap-1 text-sm" data-testid="spend-policies">
          {active.map((key) => (
            <li key={key.key_id}>
              <span className="font-medium">{key.label}</span> <span className="font-mono text-xs">{key.prefix}</span>:{' '}
              <span className="text-slate-300">{policySummary(key.spend_policy)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {active.length ? (
        <form
          className="mt-4 flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            const list = payees
              .split(/[\s,]+/)
              .map((entry) => entry.trim())
              .filter(Boolean);
            update.mutate({
              keyId,
              spend_policy: {
                allowed_payees: list.length ? list : null,
                max_claw_per_call: amount(maxPerCall),
                approval_above_claw: amount(approvalAbove),
              },
            });
          }}
        >
          <Field label="Key">
            <Select value={keyId} onChange={(event) => setKeyId(event.target.value)} required empty="Choose a key">
              {active.map((key) => (
                <option key={key.key_id} value={key.key_id}>
                  {key.label} ({key.prefix})
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Allowed payees (agent ids or wallets, comma-separated; empty: any)">
            <Input value={payees} onChange={(event) => setPayees(event.target.value)} />
          </Field>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Field label="Most per call (CLAW; empty: no maximum)">
              <Input value={maxPerCall} onChange={(event) => setMaxPerCall(event.target.value)} inputMode="decimal" />
            </Field>
            <Field label="Approval above (CLAW; empty: never)">
              <Input value={approvalAbove} onChange={(event) => setApprovalAbove(event.target.value)} inputMode="decimal" />
            </Field>
          </div>
          <Button type="submit" disabled={update.isPending || !keyId} className="self-start">
            {update.isPending ? 'Saving…' : 'Save policy'}
          </Button>
        </form>
      ) : null}
      {update.error ? <ErrorState error={update.error} title="Could not save the policy" /> : null}
      <SpendApprovals />
    </Card>
  );
}

function SpendApprovals() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const { signMessageAsync } = useSignMessage();
  const approvals = useQuery(trpc.me.spendApprovals.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.me.spendApprovals.queryKey() });
  const approve = useMutation(trpc.me.approveSpend.mutationOptions({ onSuccess: refresh }));
  const reject = useMutation(trpc.me.rejectSpend.mutationOptions({ onSuccess: refresh }));
  const [signing, setSigning] = useState<string | null>(null);
  const [signError, setSignError] = useState<unknown>(null);
  const decide = async (id: string, text: string, decision: 'approve' | 'reject') => {
    setSigning(id);
    setSignError(null);
    try {
      const message = `${text} ${Math.floor(Date.now() / 1000)}`;
      const signature = await signMessageAsync({ message, account: session.wallet as `0x${string}` });
      (decision === 'approve' ? approve : reject).mutate({ id, message, signature });
    } catch (error) {
      setSignError(error);
    } finally {
      setSigning(null);
    }
  };
  const pending = approvals.data?.approvals.filter((a) => a.status === 'pending') ?? [];
  const decided = approvals.data?.approvals.filter((a) => a.status !== 'pending').slice(0, 10) ?? [];
  return (
    <section className="mt-6" aria-labelledby="approvals-heading">
      <h3 id="approvals-heading" className="font-medium">
        Spends waiting for your approval
      </h3>
      {approvals.isLoading ? <Loading label="Loading approvals…" /> : null}
      {approvals.error ? <ErrorState error={approvals.error} title="Could not load approvals" /> : null}
      {approvals.data && pending.length === 0 ? <p className="mt-2 text-slate-300">Nothing is waiting.</p> : null}
      <ul className="mt-2 flex flex-col gap-2 text-sm" data-testid="pending-approvals">
        {pending.map((a) => (
          <li key={a.approval_id} className="rounded-md border border-slate-800 p-2" data-approval-id={a.approval_id}>
            <p>
              <span className="font-semibold tabular-nums">{claw(a.amount_claw)}</span> · {a.reason} · to{' '}
              <span className="font-mono text-xs">{a.payee_agent_id ?? a.payee_wallet ?? 'the platform'}</span>
            </p>
            <p className="text-xs text-slate-400">expires {formatDateTime(a.expires_at)}</p>
            <div className="mt-2 flex gap-2">
              <Button
                size="sm"
                disabled={signing !== null || approve.isPending}
                onClick={() => void decide(a.approval_id, a.approve_message, 'approve')}
              >
                {signing === a.approval_id ? 'Check your wallet…' : 'Approve (sign)'}
              </Button>
              <Button
                variant="danger"
                size="sm"
                disabled={signing !== null || reject.isPending}
                onClick={() => void decide(a.approval_id, a.reject_message, 'reject')}
              >
                Reject (sign)
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {decided.length ? (
        <ul className="mt-3 flex flex-col gap-1 text-xs text-slate-400">
          {decided.map((a) => (
            <li key={a.approval_id}>
              {claw(a.amount_claw)} · {a.reason} · {a.status}
            </li>
          ))}
        </ul>
      ) : null}
      {signError ? <ErrorState error={signError} title="The wallet did not sign" /> : null}
      {approve.error ? <ErrorState error={approve.error} title="Could not approve" /> : null}
      {reject.error ? <ErrorState error={reject.error} title="Could not reject" /> : null}
    </section>
  );
}

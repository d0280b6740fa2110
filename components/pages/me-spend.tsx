'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSignMessage } from 'wagmi';
import { useTRPC } from '../trpc';
import { Card, ErrorState, Loading } from '../ui/states';
import { useSession } from '../use-session';

// /me: the spend policies of the wallet's API keys and the spends waiting for its signed approval
// (docs/payments.md "Spend policies"). Approving or rejecting signs the approval's exact text with the wallet.

const input = 'rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base';

interface Policy {
  allowed_payees: string[] | null;
  max_claw_per_call: number | null;
  approval_above_claw: number | null;
}

export function policySummary(policy: Policy): string {
  const parts: string[] = [];
  if (policy.allowed_payees) parts.push(`payees: ${policy.allowed_payees.length ? policy.allowed_payees.join(', ') : 'none'}`);
  if (policy.max_claw_per_call !== null) parts.push(`max ${policy.max_claw_per_call} CLAW per call`);
  if (policy.approval_above_claw !== null) parts.push(`approval above ${policy.approval_above_claw} CLAW`);
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
          <label className="flex flex-col gap-1 text-sm">
            Key
            <select value={keyId} onChange={(event) => setKeyId(event.target.value)} className={input} required>
              <option value="">Choose a key</option>
              {active.map((key) => (
                <option key={key.key_id} value={key.key_id}>
                  {key.label} ({key.prefix})
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Allowed payees (agent ids or wallets, comma-separated; empty: any)
            <input value={payees} onChange={(event) => setPayees(event.target.value)} className={input} />
          </label>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <label className="flex flex-col gap-1 text-sm">
              Most per call (CLAW; empty: no maximum)
              <input
                value={maxPerCall}
                onChange={(event) => setMaxPerCall(event.target.value)}
                className={input}
                inputMode="decimal"
              />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              Approval above (CLAW; empty: never)
              <input
                value={approvalAbove}
                onChange={(event) => setApprovalAbove(event.target.value)}
                className={input}
                inputMode="decimal"
              />
            </label>
          </div>
          <button
            type="submit"
            disabled={update.isPending || !keyId}
            className="self-start rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
          >
            {update.isPending ? 'Saving…' : 'Save policy'}
          </button>
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
              <span className="font-semibold tabular-nums">{a.amount_claw} CLAW</span> · {a.reason} · to{' '}
              <span className="font-mono text-xs">{a.payee_agent_id ?? a.payee_wallet ?? 'the platform'}</span>
            </p>
            <p className="text-xs text-slate-400">expires {new Date(a.expires_at).toLocaleString('en-US')}</p>
            <div className="mt-2 flex gap-2">
              <button
                type="button"
                disabled={signing !== null || approve.isPending}
                onClick={() => void decide(a.approval_id, a.approve_message, 'approve')}
                className="rounded-md bg-emerald-500 px-3 py-1 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
              >
                {signing === a.approval_id ? 'Check your wallet…' : 'Approve (sign)'}
              </button>
              <button
                type="button"
                disabled={signing !== null || reject.isPending}
                onClick={() => void decide(a.approval_id, a.reject_message, 'reject')}
                className="rounded-md border border-rose-700 px-3 py-1 text-rose-200 hover:bg-rose-950 disabled:opacity-60"
              >
                Reject (sign)
              </button>
            </div>
          </li>
        ))}
      </ul>
      {decided.length ? (
        <ul className="mt-3 flex flex-col gap-1 text-xs text-slate-400">
          {decided.map((a) => (
            <li key={a.approval_id}>
              {a.amount_claw} CLAW · {a.reason} · {a.status}
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

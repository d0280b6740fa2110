'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc';
import { formatDateTime } from '../ui/format';
import { Card, ErrorState, Loading } from '../ui/states';

/** /me's credits: the balance, today's spending and the last transactions. */
export function Credits() {
  const trpc = useTRPC();
  const credits = useQuery(trpc.me.credits.queryOptions());
  return (
    <Card title="Credits">
      {credits.isLoading ? <Loading label="Loading credits…" /> : null}
      {credits.error ? <ErrorState error={credits.error} title="Could not load credits" /> : null}
      {credits.data ? (
        <>
          <p className="text-3xl font-semibold tabular-nums" data-testid="balance">
            {credits.data.balance_claw} <span className="text-base font-normal text-slate-400">CLAW</span>
          </p>
          <p className="text-sm text-slate-400">
            Spent today {credits.data.daily_spend_claw} CLAW
            {credits.data.daily_limit_claw === null ? '' : ` of ${credits.data.daily_limit_claw}`}
          </p>
          {credits.data.transactions.length === 0 ? (
            <p className="mt-3 text-slate-300">No transactions yet.</p>
          ) : (
            <ul className="mt-3 flex flex-col gap-1 text-sm">
              {credits.data.transactions.map((tx) => (
                <li key={`${tx.transaction_id}-${tx.direction}`}>
                  <span className={tx.direction === 'credit' ? 'text-emerald-300' : 'text-rose-300'}>
                    {tx.direction === 'credit' ? '+' : '−'}
                    {tx.amount_claw}
                  </span>{' '}
                  · {tx.reason} · {formatDateTime(tx.created_at)}
                </li>
              ))}
            </ul>
          )}
          <X402Payments />
        </>
      ) : null}
    </Card>
  );
}

/** USDC payments made over x402 (docs/payments.md): top-ups, paid analyses and invocations. */
function X402Payments() {
  const trpc = useTRPC();
  const payments = useQuery(trpc.me.x402Payments.queryOptions());
  if (!payments.data || payments.data.length === 0) return null;
  return (
    <section className="mt-4" data-testid="x402-payments">
      <h3 className="text-sm font-semibold text-slate-200">USDC payments (x402)</h3>
      <ul className="mt-1 flex flex-col gap-1 text-sm">
        {payments.data.map((payment) => (
          <li key={payment.id}>
            <span className={payment.status === 'settled' ? 'text-sky-300' : 'text-slate-500'}>{payment.amount_usdc} USDC</span> ·{' '}
            {payment.kind}
            {payment.claw > 0 ? ` · ${payment.claw} CLAW` : ''} · {payment.status} · {formatDateTime(payment.created_at)}
          </li>
        ))}
      </ul>
    </section>
  );
}

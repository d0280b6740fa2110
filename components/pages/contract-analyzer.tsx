'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { Card, ErrorState, Loading } from '../ui/states';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const GRADE_STYLE: Record<string, string> = {
  A: 'bg-emerald-500 text-slate-950',
  B: 'bg-lime-400 text-slate-950',
  C: 'bg-amber-400 text-slate-950',
  D: 'bg-orange-500 text-slate-950',
  F: 'bg-rose-600 text-white',
};

interface RefusalInfo {
  title: string;
  message: string;
}

interface TrpcLikeError {
  message: string;
  data?: { httpStatus?: number; apiCode?: string | null; details?: Record<string, unknown> | null } | null;
}

/** Says what went wrong in words a person can act on: the REST status and code, as the API would answer. */
function describeRefusal(error: TrpcLikeError): RefusalInfo {
  const status = error.data?.httpStatus ?? 500;
  const code = error.data?.apiCode ?? null;
  const details = error.data?.details ?? null;
  if (status === 429) {
    const retry = typeof details?.retry_after === 'number' ? details.retry_after : null;
    const hours = retry !== null ? Math.max(1, Math.ceil(retry / 3600)) : null;
    return {
      title: 'Free analyses used up',
      message: `Without a tier you get 5 analyses per day from one IP address${hours ? `; try again in about ${hours} h` : ''}. Wallets at the entry tier or above analyze without a limit: sign in with one.`,
    };
  }
  if (status === 400) {
    const fields = (details?.fields ?? {}) as Record<string, string>;
    const list = Object.entries(fields).map(([field, why]) => `${field} ${why}`);
    return { title: 'Check the request', message: list.length ? list.join('; ') : error.message };
  }
  if (status === 422 || code === 'not_a_contract') {
    return { title: 'No contract there', message: error.message };
  }
  if (status === 502 || status === 503 || status === 504) {
    return {
      title: 'The chain is not answering',
      message: `${error.message}. Nothing was counted against your free analyses; try again in a moment.`,
    };
  }
  return { title: 'The analysis failed', message: error.message };
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex justify-between gap-3 border-b border-slate-800 py-1.5 last:border-0">
      <dt className="text-slate-400">{label}</dt>
      <dd className="min-w-0 break-all text-right font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const percent = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 2 })} %`;
const maybePercent = (value: number | null) => (value === null ? 'not measured' : percent(value));
const maybeNumber = (value: number | null) => (value === null ? 'not measured' : value.toLocaleString('en-US'));

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
const SEVERITY_STYLE: Record<(typeof SEVERITIES)[number], string> = {
  critical: 'bg-rose-700 text-white',
  high: 'bg-orange-600 text-white',
  medium: 'bg-amber-500 text-slate-950',
  low: 'bg-sky-700 text-white',
  info: 'bg-slate-700 text-white',
};

export function ContractAnalyzer({ chainId }: { chainId: number }) {
  const trpc = useTRPC();
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const analyze = useMutation(trpc.analyzer.analyze.mutationOptions());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = address.trim();
    if (!ADDRESS.test(value)) {
      setFieldError('Enter a contract address: 0x followed by 40 hexadecimal characters.');
      return;
    }
    setFieldError(null);
    analyze.mutate({ contract_address: value, chain_id: chainId });
  };

  // The page asks for the graded analysis (no `chain` or `wallet_address`), so the answer is that form.
  const result = analyze.data && 'safety_rating' in analyze.data ? analyze.data : undefined;
  const refusal = analyze.error ? describeRefusal(analyze.error as unknown as TrpcLikeError) : null;

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
          <label htmlFor="contract-address">Contract address</label>
          <input
            id="contract-address"
            name="contract_address"
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'contract-address-error' : 'contract-address-hint'}
            className="rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-base"
          />
          {fieldError ? (
            <p id="contract-address-error" className="text-rose-300" role="alert">
              {fieldError}
            </p>
          ) : (
            <p id="contract-address-hint" className="text-slate-400">
              Chain {chainId}. Five free analyses per day; unlimited at the entry tier and above.
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={analyze.isPending}
          className="rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60 sm:mb-6"
        >
          {analyze.isPending ? 'Analyzing…' : 'Analyze'}
        </button>
      </form>

      {analyze.isPending ? <Loading label="Analyzing the contract: reading its code and simulating trades…" /> : null}
      {refusal ? <ErrorState error={refusal.message} title={refusal.title} /> : null}

      {result && !analyze.isPending ? (
        <section aria-labelledby="analysis-heading" className="flex flex-col gap-4" data-testid="analysis">
          <div className="flex flex-col gap-4 rounded-lg border border-slate-800 bg-slate-900/60 p-4 sm:flex-row sm:items-center">
            <div
              className={`flex h-20 w-20 shrink-0 items-center justify-center rounded-lg text-5xl font-bold ${GRADE_STYLE[result.safety_rating] ?? ''}`}
              data-testid="analysis-grade"
              aria-label={`Grade ${result.safety_rating}`}
            >
              {result.safety_rating}
            </div>
            <div className="min-w-0">
              <h2 id="analysis-heading" className="text-lg font-semibold">
                Grade {result.safety_rating} · {result.risk_level} risk
                {result.is_honeypot ? (
                  <span className="ml-2 rounded bg-rose-700 px-2 py-0.5 text-sm text-white">honeypot</span>
                ) : null}
              </h2>
              <p className="break-all font-mono text-xs text-slate-400">{result.contract_address}</p>
              <p className="mt-1 text-slate-200" data-testid="analysis-summary">
                {result.summary}
              </p>
            </div>
          </div>

          <Card title="Risk factors">
            {result.risk_factors.length === 0 ? (
              <p className="text-slate-300">No risk factors found.</p>
            ) : (
              <ul className="flex flex-col gap-2" data-testid="risk-factors">
                {result.risk_factors.map((factor) => {
                  const [code, ...rest] = factor.split(':');
                  return (
                    <li key={factor} className="break-words text-sm">
                      <span className="mr-2 rounded bg-slate-800 px-2 py-0.5 font-mono text-xs">{code}</span>
                      {rest.join(':').trim()}
                    </li>
                  );
                })}
              </ul>
            )}
          </Card>

          <Card title="Findings by severity">
            {result.flags.length === 0 ? (
              <p className="text-slate-300">No findings.</p>
            ) : (
              <ul className="flex flex-col gap-2" data-testid="analysis-flags">
                {[...result.flags]
                  .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity))
                  .map((flag) => (
                    <li key={`${flag.code}:${flag.message}`} className="break-words text-sm" data-severity={flag.severity}>
                      <span className={`mr-2 rounded px-2 py-0.5 text-xs font-semibold ${SEVERITY_STYLE[flag.severity]}`}>
                        {flag.severity}
                      </span>
                      <span className="mr-2 rounded bg-slate-800 px-2 py-0.5 font-mono text-xs">{flag.code}</span>
                      {flag.message}
                    </li>
                  ))}
              </ul>
            )}
          </Card>

          <div className="grid gap-4 md:grid-cols-2">
            <Card title="Simulated trades">
              <dl className="text-sm" data-testid="analysis-simulation">
                <Fact label="Buy tax" value={maybePercent(result.simulation.buy_tax)} />
                <Fact label="Sell tax" value={maybePercent(result.simulation.sell_tax)} />
                <Fact label="Transfer tax" value={maybePercent(result.simulation.transfer_tax)} />
                <Fact label="Buy gas" value={maybeNumber(result.simulation.buy_gas)} />
                <Fact label="Sell gas" value={maybeNumber(result.simulation.sell_gas)} />
                <Fact
                  label="Largest sellable share"
                  value={maybePercent(result.simulation.max_sell_percent)}
                  testId="analysis-max-sell"
                />
              </dl>
            </Card>
            <Card title="Holders">
              {result.holders.top_holders === null ? (
                <p className="text-slate-300">The transfer history is too long to read here; holders not counted.</p>
              ) : (
                <>
                  <p className="mb-2 text-sm text-slate-300">
                    {result.holders.holder_count} holders; the top 10 hold {maybePercent(result.holders.top10_percent)}.
                  </p>
                  <table className="w-full text-left text-sm" data-testid="analysis-holders">
                    <thead>
                      <tr className="text-slate-400">
                        <th scope="col">Address</th>
                        <th scope="col" className="text-right">
                          Share
                        </th>
                        <th scope="col">Kind</th>
                      </tr>
                    </thead>
                    <tbody>
                      {result.holders.top_holders.map((holder) => (
                        <tr key={holder.address} className="border-t border-slate-800">
                          <td className="max-w-0 truncate font-mono text-xs" title={holder.address}>
                            {holder.address}
                          </td>
                          <td className="text-right">{percent(holder.percent)}</td>
                          <td>
                            {[holder.tag, holder.is_contract ? 'contract' : null, holder.is_locked ? 'locked' : null]
                              .filter(Boolean)
                              .join(', ') || '—'}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              )}
            </Card>
          </div>

          <div className="grid gap-4 md:grid-cols-2">
            <Card title="Trading">
              <dl className="text-sm">
                <Fact label="Honeypot" value={yesNo(result.is_honeypot)} testId="analysis-honeypot" />
                <Fact label="Buy fee" value={percent(result.fees.buy_fee_percent)} />
                <Fact label="Sell fee" value={percent(result.fees.sell_fee_percent)} />
                <Fact label="Transfer fee" value={percent(result.fees.transfer_fee_percent)} />
                <Fact label="Buyback function" value={yesNo(result.buyback.has_buyback)} />
              </dl>
            </Card>
            <Card title="Ownership and liquidity">
              <dl className="text-sm">
                <Fact label="Ownership renounced" value={yesNo(result.ownership.is_renounced)} />
                <Fact label="Multisig owner" value={yesNo(result.ownership.is_multisig)} />
                <Fact label="Owner" value={result.ownership.owner_address} />
                <Fact label="Liquidity locked" value={yesNo(result.liquidity.is_locked)} />
                <Fact
                  label="Lock remaining"
                  value={
                    !result.liquidity.is_locked
                      ? 'not locked'
                      : result.liquidity.lock_duration_days >= 36500
                        ? 'burned (permanent)'
                        : `${result.liquidity.lock_duration_days} day${result.liquidity.lock_duration_days === 1 ? '' : 's'}`
                  }
                />
              </dl>
            </Card>
          </div>
          <p className="text-xs text-slate-400">
            Analyzed {new Date(result.analyzed_at).toUTCString()} on chain {result.chain_id}. How the grade is computed: the{' '}
            <a className="underline hover:text-white" href="/docs">
              API reference
            </a>{' '}
            (POST /api/analyze).
          </p>
        </section>
      ) : null}
    </div>
  );
}

'use client';
import { Card } from '../ui/states';
import {
  ChecksCard,
  CreatorCard,
  Fact,
  FlagsBySeverity,
  HoldersCard,
  percent,
  SimulationCard,
  yesNo,
  type Analysis,
} from './analysis-findings';

const GRADE_STYLE: Record<string, string> = {
  A: 'bg-emerald-500 text-slate-950',
  B: 'bg-lime-400 text-slate-950',
  C: 'bg-amber-400 text-slate-950',
  D: 'bg-orange-500 text-slate-950',
  F: 'bg-rose-600 text-white',
};

/** One analysis as the /analyze page shows it: the grade, then every field of ContractAnalysis. */
export function AnalysisReport({ result }: { result: Analysis }) {
  return (
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

      <FlagsBySeverity flags={result.flags} />

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

      <div className="grid gap-4 md:grid-cols-2">
        <SimulationCard simulation={result.simulation} />
        <CreatorCard analysis={result} />
      </div>
      <HoldersCard holders={result.holders} />
      <ChecksCard checks={result.checks} />

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
  );
}

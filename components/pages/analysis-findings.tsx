'use client';
import type { inferRouterOutputs } from '@trpc/server';
import { FLAG_SEVERITIES, type FlagSeverity } from '@/server/schemas/enums';
import type { AppRouter } from '@/server/trpc/router';
import { Card } from '../ui/states';
import { DataTable } from '../ui/table';

// The parts of an analysis beyond the spec's fields (issue 25): findings grouped by severity, the
// checks, the simulated trades, the holders and the creator.

/** The graded answer of analyzer.analyze (the page never asks for the example-skill variant). */
export type Analysis = Extract<inferRouterOutputs<AppRouter>['analyzer']['analyze'], { safety_rating: string }>;

export const yesNo = (value: boolean) => (value ? 'yes' : 'no');
export const percent = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 2 })} %`;
const maybePercent = (value: number | null) => (value === null ? 'not measured' : percent(value));
const maybeNumber = (value: number | null) => (value === null ? 'not measured' : value.toLocaleString('en-US'));

export function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex justify-between gap-3 border-b border-slate-800 py-1.5 last:border-0">
      <dt className="text-slate-400">{label}</dt>
      <dd className="min-w-0 break-all text-right font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

const SEVERITY_STYLE: Record<FlagSeverity, string> = {
  critical: 'bg-rose-700 text-white',
  high: 'bg-orange-700 text-white',
  medium: 'bg-amber-500 text-slate-950',
  low: 'bg-sky-700 text-white',
  info: 'bg-slate-700 text-white',
};

/** Every finding under its severity, most severe first; severities without a finding are left out. */
export function FlagsBySeverity({ flags }: { flags: Analysis['flags'] }) {
  const groups = [...FLAG_SEVERITIES]
    .reverse()
    .map((severity) => ({ severity, flags: flags.filter((flag) => flag.severity === severity) }))
    .filter((group) => group.flags.length > 0);
  return (
    <Card title="Findings by severity">
      {groups.length === 0 ? (
        <p className="text-slate-300">No findings.</p>
      ) : (
        <div className="flex flex-col gap-4" data-testid="analysis-flags">
          {groups.map((group) => (
            <section
              key={group.severity}
              aria-labelledby={`flags-${group.severity}-heading`}
              data-testid={`flags-${group.severity}`}
            >
              <h3 id={`flags-${group.severity}-heading`} className="mb-2 flex items-center gap-2 text-sm font-semibold">
                <span className={`rounded px-2 py-0.5 text-xs ${SEVERITY_STYLE[group.severity]}`}>{group.severity}</span>
                {group.flags.length} finding{group.flags.length === 1 ? '' : 's'}
              </h3>
              <ul className="flex flex-col gap-2">
                {group.flags.map((flag) => (
                  <li key={`${flag.code}:${flag.message}`} className="break-words text-sm" data-severity={flag.severity}>
                    <span className="mr-2 rounded bg-slate-800 px-2 py-0.5 font-mono text-xs">{flag.code}</span>
                    {flag.message}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </Card>
  );
}

const CHECK_LABELS: Record<keyof Analysis['checks'], string> = {
  is_mintable: 'Mintable',
  is_proxy: 'Upgradeable proxy',
  is_blacklisted: 'Owner can blacklist',
  is_whitelisted: 'Whitelist-only trading',
  is_anti_whale: 'Max transaction or wallet',
  anti_whale_modifiable: 'That limit can change',
  trading_cooldown: 'Cooldown between sells',
  transfer_pausable: 'Transfers can be paused',
  cannot_buy: 'A fresh account cannot buy',
  cannot_sell_all: 'Cannot sell a whole balance',
  slippage_modifiable: 'Owner can change the taxes',
  hidden_owner: 'Hidden owner',
  can_take_back_ownership: 'Ownership can be taken back',
  owner_change_balance: 'Owner can change balances',
  selfdestruct: 'Can self-destruct',
  external_call: 'Transfers call a replaceable address',
};

/** The GoPlus-style checks: yes, no, or "not decided" (null: never a guess). */
export function ChecksCard({ checks }: { checks: Analysis['checks'] }) {
  return (
    <Card title="Checks">
      <dl className="grid gap-x-6 text-sm sm:grid-cols-2" data-testid="analysis-checks">
        {(Object.keys(CHECK_LABELS) as (keyof Analysis['checks'])[]).map((name) => (
          <Fact
            key={name}
            label={CHECK_LABELS[name]}
            value={checks[name] === null ? 'not decided' : yesNo(checks[name])}
            testId={`check-${name}`}
          />
        ))}
      </dl>
    </Card>
  );
}

/** What the simulated buy, sell and transfer cost, and the largest sellable share. */
export function SimulationCard({ simulation }: { simulation: Analysis['simulation'] }) {
  return (
    <Card title="Simulated trades">
      <dl className="text-sm" data-testid="analysis-simulation">
        <Fact label="Buy tax" value={maybePercent(simulation.buy_tax)} />
        <Fact label="Sell tax" value={maybePercent(simulation.sell_tax)} />
        <Fact label="Transfer tax" value={maybePercent(simulation.transfer_tax)} />
        <Fact label="Buy gas" value={maybeNumber(simulation.buy_gas)} />
        <Fact label="Sell gas" value={maybeNumber(simulation.sell_gas)} />
        <Fact label="Largest sellable share" value={maybePercent(simulation.max_sell_percent)} testId="analysis-max-sell" />
      </dl>
    </Card>
  );
}

/** The deployer and owner()'s shares of the supply. */
export function CreatorCard({ analysis }: { analysis: Analysis }) {
  return (
    <Card title="Creator and owner">
      <dl className="text-sm" data-testid="analysis-creator">
        <Fact label="Creator" value={analysis.creator.address ?? 'not found'} />
        <Fact label="Creator's share" value={maybePercent(analysis.creator.balance_percent)} />
        <Fact
          label="Owner's share"
          value={analysis.owner_balance_percent === null ? 'no owner' : percent(analysis.owner_balance_percent)}
        />
      </dl>
    </Card>
  );
}

/** The largest holders (address, share, contract, locked, tag) read from the Transfer history. */
export function HoldersCard({ holders }: { holders: Analysis['holders'] }) {
  return (
    <Card title="Holders">
      {holders.top_holders === null ? (
        <p className="text-slate-300">The transfer history is too long to read here; holders not counted.</p>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-300" data-testid="analysis-holder-count">
            {holders.holder_count} holders; the top 10 hold {maybePercent(holders.top10_percent)}.
          </p>
          <DataTable
            caption="The largest holders of the token"
            columns={['Address', 'Share', 'Contract', 'Locked', 'Tag']}
            minWidth="min-w-[560px]"
            testId="analysis-holders"
          >
            {holders.top_holders.map((holder) => (
              <tr key={holder.address} className="border-t border-slate-800" data-address={holder.address}>
                <td className="break-all py-2 pr-3 font-mono text-xs">{holder.address}</td>
                <td className="py-2 tabular-nums">{percent(holder.percent)}</td>
                <td className="py-2">{yesNo(holder.is_contract)}</td>
                <td className="py-2">{yesNo(holder.is_locked)}</td>
                <td className="py-2" data-testid="holder-tag">
                  {holder.tag ?? '—'}
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </Card>
  );
}

'use client';
import { Card } from '../ui/states';

// The trust score card of an agent's page: the total, the propagated score and the components.

export const COMPONENTS: [
  key: 'verified' | 'tier' | 'skills' | 'attestations' | 'account_age' | 'connections',
  label: string,
  max: number,
][] = [
  ['verified', 'Verified', 20],
  ['tier', 'Tier', 50],
  ['skills', 'Published skills', 50],
  ['attestations', 'Endorsements and attestations', 100],
  ['account_age', 'Account age', 20],
  ['connections', 'Trust-graph connections', 40],
];

export type TrustComponents = Record<(typeof COMPONENTS)[number][0], number>;

export function TrustCard({
  trust,
  propagated,
}: {
  trust: { total: number; components: TrustComponents; formula: string };
  /** The relative 0-100 score, null while no endorsement or attestation flows trust in. */
  propagated: number | null;
}) {
  return (
    <Card title="Trust score">
      <p className="text-4xl font-semibold tabular-nums" data-testid="trust-total">
        {trust.total}
        <span className="text-base font-normal text-slate-400"> / 280</span>
      </p>
      <p className="text-sm text-slate-400" data-testid="propagated-trust">
        {propagated !== null ? (
          <>Propagated trust: {propagated} / 100 (relative to the best-trusted agent)</>
        ) : (
          <>Propagated trust: — (no endorsements yet: trust flows in only through them)</>
        )}
      </p>
      <table className="mt-4 w-full text-sm">
        <caption className="sr-only">Trust score components</caption>
        <thead>
          <tr className="text-left text-slate-400">
            <th scope="col" className="font-normal">
              Component
            </th>
            <th scope="col" className="text-right font-normal">
              Points
            </th>
          </tr>
        </thead>
        <tbody>
          {COMPONENTS.map(([key, label, max]) => (
            <tr key={key} className="border-t border-slate-800">
              <td className="py-1">{label}</td>
              <td className="py-1 text-right tabular-nums">
                {trust.components[key]} / {max}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-3 text-xs text-slate-400">Formula: {trust.formula}</p>
    </Card>
  );
}

/** The change of each trust component, e.g. "+10 endorsements and attestations, +2 trust-graph connections". */
export function explainTrustChange(before: TrustComponents, after: TrustComponents): string[] {
  return COMPONENTS.flatMap(([key, label]) => {
    const delta = after[key] - before[key];
    return delta === 0 ? [] : [`${delta > 0 ? '+' : ''}${delta} ${label.toLowerCase()}`];
  });
}

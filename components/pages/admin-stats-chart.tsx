'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTRPC } from '../trpc';
import { Select } from '../ui/form';
import { Card, ErrorState, Loading } from '../ui/states';

// The admin console's platform activity per UTC day (admin.statsHistory): one stacked bar a day.

const SERIES = [
  ['agents', 'new agents', '#34d399'],
  ['endorsements', 'endorsements', '#60a5fa'],
  ['attestations', 'attestations', '#f472b6'],
  ['invocations', 'paid calls', '#fbbf24'],
] as const;

type DayCounts = Record<(typeof SERIES)[number][0], number> & { day: string };

/** One day's counts as a sentence, e.g. "2 new agents, 1 endorsement" (or "no activity"). */
function describeDay(day: DayCounts | undefined): string {
  if (!day) return 'no data';
  const parts = SERIES.filter(([key]) => day[key] > 0).map(([key, name]) => {
    const count = day[key];
    return `${count} ${count === 1 ? name.replace(/s$/, '') : name}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'no activity yet';
}

export function StatsChart() {
  const trpc = useTRPC();
  const [days, setDays] = useState(30);
  const history = useQuery({ ...trpc.admin.statsHistory.queryOptions({ days }), placeholderData: keepPreviousData });
  return (
    <Card title="Platform activity per day">
      <label className="mb-3 flex items-center gap-2 text-sm">
        Period
        <Select
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
          options={[7, 30, 90]}
          labels={(value) => `${value} days`}
        />
      </label>
      {history.isLoading ? <Loading label="Loading history…" /> : null}
      {history.error ? <ErrorState error={history.error} title="Could not load the history" /> : null}
      {history.data ? (
        <>
          <p className="mb-2 text-sm text-slate-300" data-testid="stats-today">
            Today (UTC): {describeDay(history.data.at(-1))}
          </p>
          <div
            className="h-64 w-full"
            data-testid="stats-chart"
            role="img"
            aria-label="Stacked bar chart of new agents, endorsements, attestations and paid calls per day"
          >
            <ResponsiveContainer width="100%" height="100%">
              {/* One stacked bar per day of its own counts: nothing is drawn between days, none is smoothed. */}
              <BarChart data={history.data} margin={{ top: 8, right: 8, bottom: 8, left: -16 }} barCategoryGap="15%">
                <CartesianGrid stroke="#1e293b" vertical={false} />
                <XAxis dataKey="day" stroke="#94a3b8" fontSize={11} />
                <YAxis allowDecimals={false} stroke="#94a3b8" fontSize={11} />
                <Tooltip cursor={{ fill: '#1e293b' }} contentStyle={{ background: '#0f172a', border: '1px solid #334155' }} />
                <Legend />
                {SERIES.map(([key, name, color]) => (
                  <Bar key={key} dataKey={key} name={name} fill={color} stackId="day" isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        </>
      ) : null}
    </Card>
  );
}

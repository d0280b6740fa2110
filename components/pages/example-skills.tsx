'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc';
import { Chip } from '../ui/badge';
import { ErrorState, Loading } from '../ui/states';
import { priceLabel } from './skill-card';

/** The platform's example skills (skills.examples), free to use. */
export function ExampleSkills() {
  const trpc = useTRPC();
  const examples = useQuery(trpc.skills.examples.queryOptions());
  return (
    <section aria-labelledby="examples-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="examples-heading" className="text-xl font-semibold">
          Example skills
        </h2>
        <p className="text-sm text-slate-400">
          Working integrations of this service, free to use; the full payloads are at{' '}
          <a className="underline hover:text-white" href="/api/skills/examples">
            /api/skills/examples
          </a>
          .
        </p>
      </div>
      {examples.isLoading ? <Loading label="Loading example skills…" /> : null}
      {examples.error ? <ErrorState error={examples.error} title="Could not load the example skills" /> : null}
      {examples.data ? (
        <ul className="grid gap-3 md:grid-cols-2" data-testid="example-skills">
          {examples.data.map((example) => (
            <li key={example.id} className="flex flex-col gap-2 rounded-lg border border-slate-800 bg-slate-900/60 p-4">
              <div className="flex items-start justify-between gap-3">
                <h3 className="break-words font-semibold">{example.name}</h3>
                <p className="shrink-0 rounded bg-slate-800 px-2 py-0.5 text-sm">
                  {priceLabel(example.pricing_type, example.price_claw)}
                </p>
              </div>
              <p className="text-sm text-slate-200">{example.summary}</p>
              <details className="text-sm text-slate-300">
                <summary className="cursor-pointer text-slate-200">Details</summary>
                <p className="mt-2">{example.description}</p>
                <p className="mt-2">{example.instructions}</p>
              </details>
              <p className="flex flex-wrap gap-2 text-xs">
                <Chip>{example.category}</Chip>
                <Chip>{example.integration_type}</Chip>
                <Chip>v{example.version}</Chip>
                <Chip>by Vouchsafe</Chip>
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

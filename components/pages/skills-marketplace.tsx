'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSignMessage } from 'wagmi';
import { useTRPC } from '../trpc';
import { useQueryInUrl } from '../use-query-in-url';
import { Pagination } from '../ui/pagination';
import { Card, ErrorState, Loading, shortAddress } from '../ui/states';
import { useSession } from '../use-session';
import { CATEGORIES, PRICING, type MarketFilters } from '../skill-filters';
import { PLATFORM_AUTHOR_WALLET } from '@/server/skills/platform-author';

/** What an upload (family A, POST /api/skills) accepts. */
const UPLOAD_CATEGORIES = ['automation', 'analysis', 'social', 'trading', 'security'] as const;
const PAGE_SIZE = 12;

const selectClass = 'rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base';

function priceLabel(pricing: string, price: number): string {
  if (pricing === 'free' || price === 0) return 'free';
  if (pricing === 'subscription') return `${price.toLocaleString('en-US')} CLAW / 30 days`;
  return `${price.toLocaleString('en-US')} CLAW once`;
}

export function SkillsMarketplace({ initial }: { initial: MarketFilters }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(initial);
  const [searchText, setSearchText] = useState(initial.search);

  useEffect(() => {
    const id = setTimeout(() => setFilters((f) => (f.search === searchText ? f : { ...f, search: searchText, page: 1 })), 300);
    return () => clearTimeout(id);
  }, [searchText]);
  useQueryInUrl('/skills', {
    search: filters.search,
    category: filters.category,
    pricing: filters.pricing,
    sort: filters.sort !== 'newest' && filters.sort,
    page: filters.page > 1 && filters.page,
  });

  const list = useQuery({
    ...trpc.skills.list.queryOptions({
      search: filters.search || undefined,
      category: filters.category || undefined,
      pricingType: filters.pricing || undefined,
      sort: filters.sort,
      page: filters.page,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="market-heading" className="flex flex-col gap-4">
        <h2 id="market-heading" className="text-xl font-semibold">
          Published skills
        </h2>
        <form
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_auto_auto_auto]"
          role="search"
          onSubmit={(event) => event.preventDefault()}
        >
          <label className="flex flex-col gap-1 text-sm">
            Search skills
            <input
              type="search"
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
              className={selectClass}
              placeholder="name, description or tag"
              maxLength={100}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Category
            <select
              value={filters.category}
              onChange={(event) => setFilters({ ...filters, category: event.target.value as MarketFilters['category'], page: 1 })}
              className={selectClass}
            >
              <option value="">All categories</option>
              {CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Pricing
            <select
              value={filters.pricing}
              onChange={(event) => setFilters({ ...filters, pricing: event.target.value as MarketFilters['pricing'], page: 1 })}
              className={selectClass}
            >
              <option value="">Any pricing</option>
              {PRICING.map((pricing) => (
                <option key={pricing} value={pricing}>
                  {pricing.replace('_', ' ')}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Sort by
            <select
              value={filters.sort}
              onChange={(event) => setFilters({ ...filters, sort: event.target.value as MarketFilters['sort'], page: 1 })}
              className={selectClass}
            >
              <option value="newest">newest</option>
              <option value="reputation">rating and installs</option>
              <option value="price">price</option>
            </select>
          </label>
        </form>

        {list.isLoading ? <Loading label="Loading skills…" /> : null}
        {list.error ? <ErrorState error={list.error} title="Could not load skills" /> : null}
        {list.data ? (
          <>
            <p className="text-sm text-slate-400" aria-live="polite">
              {list.data.total.toLocaleString('en-US')} skill{list.data.total === 1 ? '' : 's'} · page {filters.page} of {pages}
            </p>
            {list.data.skills.length === 0 ? (
              <p className="rounded-md border border-slate-800 p-6 text-slate-300">No published skills match these filters.</p>
            ) : (
              <ul className="grid gap-3 md:grid-cols-2" data-testid="skill-list">
                {list.data.skills.map((skill) => (
                  <li key={skill.id} className="flex flex-col gap-2 rounded-lg border border-slate-800 bg-slate-900/60 p-4">
                    <SkillCard skill={skill} />
                  </li>
                ))}
              </ul>
            )}
            <Pagination page={filters.page} pages={pages} onPage={(page) => setFilters({ ...filters, page })} />
          </>
        ) : null}
      </section>

      <ExampleSkills />
      <PublishSkill />
    </div>
  );
}

interface SkillView {
  id: string;
  name: string;
  summary: string;
  description: string;
  category: string;
  tags: string[];
  author_wallet: string;
  author_handle: string | null;
  rating: number;
  install_count: number;
  pricing_type: string;
  price_claw: number;
  integration_type: string | null;
  version: string;
  repo_url: string | null;
}

function SkillCard({ skill }: { skill: SkillView }) {
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="break-words font-semibold">{skill.name}</h3>
          <p className="text-sm text-slate-400">
            by{' '}
            {skill.author_wallet === PLATFORM_AUTHOR_WALLET ? (
              <span>Vouchsafe</span>
            ) : skill.author_handle ? (
              <Link href={`/agents/${skill.author_handle}`} className="underline hover:text-white">
                @{skill.author_handle}
              </Link>
            ) : (
              <span className="font-mono">{shortAddress(skill.author_wallet)}</span>
            )}{' '}
            · v{skill.version}
          </p>
        </div>
        <p className="shrink-0 rounded bg-slate-800 px-2 py-0.5 text-sm">{priceLabel(skill.pricing_type, skill.price_claw)}</p>
      </div>
      {skill.summary ? <p className="text-sm text-slate-200">{skill.summary}</p> : null}
      <details className="text-sm text-slate-300">
        <summary className="cursor-pointer text-slate-200">Details</summary>
        <p className="mt-2 whitespace-pre-line break-words">{skill.description}</p>
        {skill.repo_url ? (
          <p className="mt-1 break-all">
            Source:{' '}
            <a href={skill.repo_url} className="underline hover:text-white" rel="noopener noreferrer nofollow">
              {skill.repo_url}
            </a>
          </p>
        ) : null}
      </details>
      <p className="flex flex-wrap gap-2 text-xs">
        <span className="rounded bg-slate-800 px-2 py-0.5">{skill.category}</span>
        <span className="rounded bg-slate-800 px-2 py-0.5">{skill.integration_type ?? 'no integration type'}</span>
        <span className="rounded bg-slate-800 px-2 py-0.5">
          {skill.install_count.toLocaleString('en-US')} install{skill.install_count === 1 ? '' : 's'}
        </span>
        <span className="rounded bg-slate-800 px-2 py-0.5">rating {skill.rating.toFixed(1)} / 5</span>
        {skill.tags.slice(0, 5).map((tag) => (
          <span key={tag} className="rounded border border-slate-700 px-2 py-0.5">
            #{tag}
          </span>
        ))}
      </p>
      <InstallButton skillId={skill.id} skillName={skill.name} authorWallet={skill.author_wallet} price={skill.price_claw} />
    </>
  );
}

function InstallButton({
  skillId,
  skillName,
  authorWallet,
  price,
}: {
  skillId: string;
  skillName: string;
  authorWallet: string;
  price: number;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const { signMessageAsync } = useSignMessage();
  const [signError, setSignError] = useState<string | null>(null);
  const install = useMutation(
    trpc.skills.install.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.skills.list.queryKey() }),
    }),
  );
  if (!session.wallet) return <p className="text-xs text-slate-400">Sign in with your wallet to install.</p>;
  const own = session.wallet.toLowerCase() === authorWallet.toLowerCase();
  const submit = async () => {
    setSignError(null);
    // A nonce before the timestamp, so a second click in the same second is a new message (each is accepted once).
    const nonce = Math.random().toString(36).slice(2, 10);
    const message = `Install skill ${skillId} ${nonce} ${Math.floor(Date.now() / 1000)}`;
    try {
      const signature = await signMessageAsync({ message, account: session.wallet as `0x${string}` });
      install.mutate({ id: skillId, message, signature });
    } catch (error) {
      setSignError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        onClick={() => void submit()}
        disabled={install.isPending}
        aria-label={`Install ${skillName}`}
        className="self-start rounded-md bg-emerald-500 px-3 py-1.5 text-sm font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
      >
        {install.isPending ? 'Installing…' : price > 0 && !own ? `Sign and install (${price} CLAW)` : 'Sign and install'}
      </button>
      {install.data ? (
        <p role="status" className="text-sm text-emerald-300" data-testid="install-result">
          {install.data.already_installed ? 'Already installed.' : 'Installed.'}
          {install.data.charged_claw > 0 ? ` Charged ${install.data.charged_claw} CLAW.` : ''}
        </p>
      ) : null}
      {install.error ? <ErrorState error={install.error} title="Install refused" /> : null}
      {signError ? <ErrorState error={signError} title="The wallet did not sign" /> : null}
    </div>
  );
}

function ExampleSkills() {
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
                <span className="rounded bg-slate-800 px-2 py-0.5">{example.category}</span>
                <span className="rounded bg-slate-800 px-2 py-0.5">{example.integration_type}</span>
                <span className="rounded bg-slate-800 px-2 py-0.5">v{example.version}</span>
                <span className="rounded bg-slate-800 px-2 py-0.5">by Vouchsafe</span>
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function PublishSkill() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const ids = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState<(typeof UPLOAD_CATEGORIES)[number]>('automation');
  const [pricing, setPricing] = useState<'free' | 'paid' | 'subscription'>('free');
  const [price, setPrice] = useState('');
  const publish = useMutation(
    trpc.skills.publish.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.skills.list.queryKey() }),
    }),
  );
  if (!session.wallet) {
    return (
      <Card title="Publish a skill">
        <p className="text-sm text-slate-300">Sign in with your wallet to publish a skill (Pro tier or above).</p>
      </Card>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate({
      name,
      description,
      category,
      pricing_type: pricing,
      ...(pricing !== 'free' && price ? { price_claw: Number(price) } : {}),
    });
  };
  const field = 'rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base';
  return (
    <Card title="Publish a skill">
      <p className="mb-3 text-sm text-slate-400">
        Uploading needs the Pro tier. A safety scan keeps a suspicious skill in draft (visible to you only) with its reasons.
      </p>
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
        <label className="flex flex-col gap-1 text-sm sm:col-span-2">
          Name
          <input required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} className={field} />
        </label>
        <label className="flex flex-col gap-1 text-sm sm:col-span-2">
          Description
          <textarea
            required
            maxLength={5000}
            rows={4}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            className={field}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Category
          <select value={category} onChange={(event) => setCategory(event.target.value as typeof category)} className={field}>
            {UPLOAD_CATEGORIES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Pricing
          <select value={pricing} onChange={(event) => setPricing(event.target.value as typeof pricing)} className={field}>
            <option value="free">free</option>
            <option value="paid">paid once</option>
            <option value="subscription">subscription (30 days)</option>
          </select>
        </label>
        {pricing !== 'free' ? (
          <label className="flex flex-col gap-1 text-sm" htmlFor={`${ids}-price`}>
            Price (CLAW)
            <input
              id={`${ids}-price`}
              type="number"
              min={0}
              step="any"
              required
              value={price}
              onChange={(event) => setPrice(event.target.value)}
              className={field}
            />
          </label>
        ) : null}
        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={publish.isPending}
            className="rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
          >
            {publish.isPending ? 'Publishing…' : 'Publish'}
          </button>
        </div>
      </form>
      {publish.data ? (
        <p role="status" className="mt-3 text-sm text-emerald-300" data-testid="publish-result">
          {publish.data.status === 'active'
            ? `Published “${publish.data.name}”.`
            : `“${publish.data.name}” is kept in draft: ${publish.data.review?.reasons.join('; ') ?? 'flagged by the safety scan'}.`}
        </p>
      ) : null}
      {publish.error ? <ErrorState error={publish.error} title="Publishing refused" /> : null}
    </Card>
  );
}

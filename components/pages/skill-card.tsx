'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useSignMessage } from 'wagmi';
import { PLATFORM_AUTHOR_WALLET } from '@/server/skills/platform-author';
import { useTRPC } from '../trpc';
import { useSession } from '../use-session';
import { Chip } from '../ui/badge';
import { Button } from '../ui/form';
import { plural, shortAddress } from '../ui/format';
import { ErrorState } from '../ui/states';

// One published skill of the marketplace: author, price, facts, details and the install button.

export function priceLabel(pricing: string, price: number): string {
  if (pricing === 'free' || price === 0) return 'free';
  if (pricing === 'subscription') return `${price.toLocaleString('en-US')} CLAW / 30 days`;
  return `${price.toLocaleString('en-US')} CLAW once`;
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

export function SkillCard({ skill }: { skill: SkillView }) {
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
        <Chip>{skill.category}</Chip>
        <Chip>{skill.integration_type ?? 'no integration type'}</Chip>
        <Chip>{plural(skill.install_count, 'install')}</Chip>
        <Chip>rating {skill.rating.toFixed(1)} / 5</Chip>
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
      <Button
        size="sm"
        onClick={() => void submit()}
        disabled={install.isPending}
        aria-label={`Install ${skillName}`}
        className="self-start"
      >
        {install.isPending ? 'Installing…' : price > 0 && !own ? `Sign and install (${price} CLAW)` : 'Sign and install'}
      </Button>
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

import Link from 'next/link';
import { WalletButton } from './wallet-button';

const LINKS = [
  ['/agents', 'Agents'],
  ['/graph', 'Trust graph'],
  ['/analyze', 'Analyze'],
  ['/jobs', 'Jobs'],
  ['/signals', 'Signals'],
  ['/leaderboard', 'Leaderboard'],
  ['/skills', 'Skills'],
  ['/docs', 'API reference'],
] as const;

export function SiteHeader() {
  return (
    <header className="border-b border-slate-800">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-slate-800 focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <Link href="/" className="text-lg font-semibold tracking-tight">
          Vouchsafe
        </Link>
        <WalletButton />
        <nav aria-label="Main" className="w-full">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-300">
            {LINKS.map(([href, label]) => (
              <li key={href}>
                {href === '/docs' ? (
                  <a href={href} className="hover:text-white">
                    {label}
                  </a>
                ) : (
                  <Link href={href} className="hover:text-white">
                    {label}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}

import Link from 'next/link';

export function SiteHeader() {
  return (
    <header className="border-b border-slate-800">
      <nav className="mx-auto flex max-w-5xl items-center justify-between px-6 py-4">
        <Link href="/" className="text-lg font-semibold tracking-tight">
          Vouchsafe
        </Link>
        <div className="flex gap-6 text-sm text-slate-300">
          <a href="/docs" className="hover:text-white">
            API reference
          </a>
          <a href="/api/v1/health" className="hover:text-white">
            Status
          </a>
        </div>
      </nav>
    </header>
  );
}

'use client';
import { useEffect, useRef, useState } from 'react';
import type {} from 'altcha/types/react';
import { safeNextPath } from '@/server/web-auth/safe-next';

export function BotCheck({ next }: { next: string }) {
  const widget = useRef<HTMLElement>(null);
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<'idle' | 'checking' | 'done' | 'failed'>('idle');

  useEffect(() => {
    let cancelled = false;
    void import('altcha').then(() => !cancelled && setReady(true));
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    const element = widget.current;
    if (!ready || !element) return;
    const onVerified = async (event: Event) => {
      const payload = (event as CustomEvent<{ payload?: string }>).detail?.payload;
      if (!payload) return;
      setState('checking');
      const response = await fetch('/bot-check/verify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payload }),
      }).catch(() => null);
      if (response?.ok) {
        setState('done');
        window.location.replace(safeNextPath(next));
      } else {
        setState('failed');
      }
    };
    element.addEventListener('verified', onVerified);
    return () => element.removeEventListener('verified', onVerified);
  }, [ready, next]);

  return (
    <div className="flex max-w-md flex-col gap-4">
      <p className="text-slate-300">
        Before your first visit, your browser solves a small proof-of-work puzzle. It runs here, on this server: no third-party
        service, no tracking. It takes a second or two and is remembered for this browser.
      </p>
      <div className="rounded-lg bg-slate-100 p-2 text-slate-900" data-testid="bot-check-widget">
        {ready ? (
          <altcha-widget ref={widget} challenge="/bot-check/challenge" auto="onload" name="altcha" />
        ) : (
          <p className="p-2 text-sm">Loading the check…</p>
        )}
      </div>
      <p role="status" aria-live="polite" className="text-sm text-slate-300">
        {state === 'checking'
          ? 'Checking…'
          : state === 'done'
            ? 'Done, taking you on…'
            : state === 'failed'
              ? 'The check failed. Reload the page to try again.'
              : ''}
      </p>
    </div>
  );
}

'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { Button, Input } from '../ui/form';
import { ErrorState, Loading } from '../ui/states';
import { AnalysisReport } from './analysis-report';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

interface RefusalInfo {
  title: string;
  message: string;
}

interface TrpcLikeError {
  message: string;
  data?: { httpStatus?: number; apiCode?: string | null; details?: Record<string, unknown> | null } | null;
}

/** Says what went wrong in words a person can act on: the REST status and code, as the API would answer. */
function describeRefusal(error: TrpcLikeError): RefusalInfo {
  const status = error.data?.httpStatus ?? 500;
  const code = error.data?.apiCode ?? null;
  const details = error.data?.details ?? null;
  // 402 payment_required where x402 payments are on (the answer offers to pay for this one), else 429.
  if (status === 429 || (status === 402 && code === 'payment_required')) {
    const retry = typeof details?.retry_after === 'number' ? details.retry_after : null;
    const hours = retry !== null ? Math.max(1, Math.ceil(retry / 3600)) : null;
    const x402 = details?.x402 as { price_usdc?: string } | undefined;
    const pay = x402?.price_usdc ? ` An agent can also pay ${x402.price_usdc} USDC for one over x402 (docs/payments.md).` : '';
    return {
      title: 'Free analyses used up',
      message: `Without a tier you get 5 analyses per day from one IP address${hours ? `; try again in about ${hours} h` : ''}. Wallets at the entry tier or above analyze without a limit: sign in with one.${pay}`,
    };
  }
  if (status === 400) {
    const fields = (details?.fields ?? {}) as Record<string, string>;
    const list = Object.entries(fields).map(([field, why]) => `${field} ${why}`);
    return { title: 'Check the request', message: list.length ? list.join('; ') : error.message };
  }
  if (status === 422 || code === 'not_a_contract') {
    return { title: 'No contract there', message: error.message };
  }
  if (status === 502 || status === 503 || status === 504) {
    return {
      title: 'The chain is not answering',
      message: `${error.message}. Nothing was counted against your free analyses; try again in a moment.`,
    };
  }
  return { title: 'The analysis failed', message: error.message };
}

export function ContractAnalyzer({ chainId }: { chainId: number }) {
  const trpc = useTRPC();
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const analyze = useMutation(trpc.analyzer.analyze.mutationOptions());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = address.trim();
    if (!ADDRESS.test(value)) {
      setFieldError('Enter a contract address: 0x followed by 40 hexadecimal characters.');
      return;
    }
    setFieldError(null);
    analyze.mutate({ contract_address: value, chain_id: chainId });
  };

  // The page asks for the graded analysis (no `chain` or `wallet_address`), so the answer is that form.
  const result = analyze.data && 'safety_rating' in analyze.data ? analyze.data : undefined;
  const refusal = analyze.error ? describeRefusal(analyze.error as unknown as TrpcLikeError) : null;

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
          <label htmlFor="contract-address">Contract address</label>
          <Input
            id="contract-address"
            name="contract_address"
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'contract-address-error' : 'contract-address-hint'}
            className="font-mono"
          />
          {fieldError ? (
            <p id="contract-address-error" className="text-rose-300" role="alert">
              {fieldError}
            </p>
          ) : (
            <p id="contract-address-hint" className="text-slate-400">
              Chain {chainId}. Five free analyses per day; unlimited at the entry tier and above.
            </p>
          )}
        </div>
        <Button type="submit" disabled={analyze.isPending} className="sm:mb-6">
          {analyze.isPending ? 'Analyzing…' : 'Analyze'}
        </Button>
      </form>

      {analyze.isPending ? <Loading label="Analyzing the contract: reading its code and simulating trades…" /> : null}
      {refusal ? <ErrorState error={refusal.message} title={refusal.title} /> : null}

      {result && !analyze.isPending ? <AnalysisReport result={result} /> : null}
    </div>
  );
}

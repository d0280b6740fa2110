'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { Button, CheckList, Field, Input } from '../ui/form';
import { formatDateTime } from '../ui/format';
import { SecretOnce } from '../ui/list';
import { Card, ErrorState, Loading } from '../ui/states';
import { DataTable } from '../ui/table';

/** /me's API keys: mint (the secret shown once), list, revoke. */
export function ApiKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.me.apiKeys.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.me.apiKeys.queryKey() });
  const mint = useMutation(trpc.me.mintApiKey.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.me.revokeApiKey.mutationOptions({ onSuccess: refresh }));
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  return (
    <Card title="API keys">
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          mint.mutate({ label: label.trim(), ...(scopes.length ? { scopes } : {}) });
        }}
      >
        <Field label="Label for a new key">
          <Input value={label} onChange={(event) => setLabel(event.target.value)} required maxLength={100} />
        </Field>
        {keys.data ? (
          <CheckList
            legend="Scopes (none ticked: read-only scopes)"
            options={keys.data.scopes}
            value={scopes}
            onChange={setScopes}
          />
        ) : null}
        <Button type="submit" disabled={mint.isPending || !label.trim()} className="self-start">
          {mint.isPending ? 'Minting…' : 'Mint API key'}
        </Button>
      </form>
      {mint.data ? (
        <SecretOnce title="Copy this key now: it is shown only once." testId="minted-key">
          {mint.data.api_key}
        </SecretOnce>
      ) : null}
      {mint.error ? <ErrorState error={mint.error} title="Could not mint a key" /> : null}
      {keys.isLoading ? <Loading label="Loading keys…" /> : null}
      {keys.error ? <ErrorState error={keys.error} title="Could not load keys" /> : null}
      {keys.data ? (
        keys.data.keys.length === 0 ? (
          <p className="mt-3 text-slate-300">No keys yet.</p>
        ) : (
          <DataTable
            caption="Your API keys"
            columns={['Label', 'Prefix', 'Status', 'Last used']}
            actions
            minWidth="min-w-[560px]"
            testId="api-keys"
            className="mt-4"
          >
            {keys.data.keys.map((key) => (
              <tr key={key.key_id} className="border-t border-slate-800" data-key-id={key.key_id}>
                <td className="py-2">{key.label}</td>
                <td className="py-2 font-mono text-xs">{key.prefix}</td>
                <td className="py-2" data-testid="key-status">
                  {key.status}
                </td>
                <td className="py-2">{formatDateTime(key.last_used_at, 'never')}</td>
                <td className="py-2 text-right">
                  {key.status === 'active' ? (
                    <Button
                      variant="danger"
                      size="xs"
                      onClick={() => revoke.mutate({ key_id: key.key_id })}
                      disabled={revoke.isPending}
                      aria-label={`Revoke key ${key.label}`}
                    >
                      Revoke
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )
      ) : null}
      {revoke.error ? <ErrorState error={revoke.error} title="Could not revoke the key" /> : null}
    </Card>
  );
}

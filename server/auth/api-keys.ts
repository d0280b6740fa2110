import { database, db } from '../core/db';
import type { ApiKey } from '../core/db/generated/client';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { normalizeScopes, READ_SCOPES, WALLET_SCOPES } from '../core/scopes';
import { hashSecret, newApiKey } from './credentials';
import {
  copySpendPolicy,
  loadSpendPolicy,
  policyView,
  writeSpendPolicy,
  type SpendPolicyInput,
  type SpendPolicyRow,
} from '../credits/spend-policy';

type KeyFields = Pick<ApiKey, 'id' | 'label' | 'prefix' | 'scopes' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>;

function keyView(key: KeyFields, policy: SpendPolicyRow | null) {
  return {
    key_id: key.id,
    label: key.label,
    prefix: key.prefix,
    scopes: key.scopes,
    status: key.revokedAt ? 'revoked' : 'active',
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    spend_policy: policyView(policy),
  };
}

/**
 * Who may set a spend policy: the wallet itself (signature headers, the web session), or a delegated
 * credential that no policy constrains (it could spend freely anyway). A credential under a policy
 * cannot loosen one: 403; the keys it mints inherit its policy.
 */
async function assertMaySetPolicy(caller: Caller): Promise<void> {
  if (caller.via === 'signature' || !caller.credentialId) return;
  if (await loadSpendPolicy(caller.credentialId, database().sql)) {
    throw new ApiError(
      'forbidden',
      'A credential under a spend policy cannot set spend policies; use the wallet (signature or web session)',
    );
  }
}

type KeyRow = SpendPolicyRow & {
  id: string;
  label: string;
  prefix: string;
  scopes: string[];
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
};

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

/** GET /api/list-api-keys: the caller's keys, never their secrets; one statement with their spend policies. */
export async function listApiKeys(caller: Caller) {
  const rows = await database().sql.query<KeyRow>(
    `SELECT k.id, k.label, k.prefix, k.scopes, k.created_at, k.last_used_at, k.revoked_at, p.credential_id, p.wallet,
       p.restrict_payees, p.allowed_payees, p.max_per_call::text AS max_per_call, p.approval_above::text AS approval_above
     FROM api_keys k LEFT JOIN spend_policies p ON p.credential_id = k.id
     WHERE k.wallet = $1 ORDER BY k.created_at DESC, k.id ASC`,
    [caller.wallet],
    { prepare: true },
  );
  return {
    keys: rows.map((row) =>
      keyView(
        {
          id: row.id,
          label: row.label,
          prefix: row.prefix,
          scopes: row.scopes,
          createdAt: new Date(row.created_at),
          lastUsedAt: dateOrNull(row.last_used_at),
          revokedAt: dateOrNull(row.revoked_at),
        },
        row.credential_id === null ? null : row,
      ),
    ),
  };
}

/**
 * The scopes a caller may put on a key it mints. A bearer token or an API key is a delegated
 * credential: never more than it holds. The wallet's own signature (signature headers, the web
 * session) is the root credential: any scope the wallet could get by signing in.
 */
function grantableScopes(caller: Caller): readonly string[] {
  return caller.via === 'signature' ? WALLET_SCOPES : caller.scopes;
}

/**
 * POST /api/mint-api-key: a new key with at most the scopes the caller may grant; the secret is shown
 * once. Without `scopes` the key may only read (least privilege: a key handed to a script or a service
 * should not spend, publish or manage keys unless that was asked for).
 */
export async function mintApiKey(caller: Caller, input: { label: string; scopes?: string[]; spend_policy?: SpendPolicyInput }) {
  if (input.spend_policy) await assertMaySetPolicy(caller);
  const grantable = grantableScopes(caller);
  const scopes = normalizeScopes(input.scopes ?? READ_SCOPES.filter((scope) => grantable.includes(scope)));
  const beyond = scopes.find((scope) => !grantable.includes(scope));
  if (beyond) {
    throw new ApiError('missing_scope', `Cannot grant scope ${beyond}: the calling credential does not hold it`, {
      required_scope: beyond,
    });
  }
  const { key, prefix } = newApiKey();
  const record = await db().apiKey.create({
    data: {
      keyHash: hashSecret(key),
      prefix,
      label: input.label,
      wallet: caller.wallet,
      agentPubkey: caller.agentPubkey,
      scopes,
      maxSpendPerDay: caller.maxSpendPerDay,
      source: 'mint',
    },
  });
  const { sql } = database();
  // A key minted by a credential under a policy inherits it (spend-policy.ts); the wallet may set one.
  if (caller.credentialId) await copySpendPolicy(caller.credentialId, record.id, sql);
  const policy = input.spend_policy
    ? await writeSpendPolicy(record.id, caller.wallet, input.spend_policy, sql)
    : await loadSpendPolicy(record.id, sql);
  return { ...keyView(record, policy), api_key: key };
}

/** POST /api/revoke-api-key: revokes one of the caller's keys at once. Another wallet's key is 404. */
export async function revokeApiKey(caller: Caller, keyId: string) {
  const key = await db().apiKey.findFirst({ where: { id: keyId, wallet: caller.wallet } });
  if (!key) throw ApiError.notFound('API key');
  const revoked = key.revokedAt ? key : await db().apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
  return { revoked: true, ...keyView(revoked, await loadSpendPolicy(key.id, database().sql)) };
}

/** PATCH /api/v1/api-keys/{id}: changes one of the caller's keys' spend policy. Another wallet's key is 404. */
export async function patchApiKey(caller: Caller, keyId: string, input: { spend_policy: SpendPolicyInput }) {
  const key = await db().apiKey.findFirst({ where: { id: keyId, wallet: caller.wallet } });
  if (!key) throw ApiError.notFound('API key');
  await assertMaySetPolicy(caller);
  const policy = await writeSpendPolicy(key.id, caller.wallet, input.spend_policy, database().sql);
  return keyView(key, policy);
}

/** POST /api/v1/auth/revoke: revokes the bearer token that makes the call. */
export async function revokeToken(caller: Caller) {
  if (caller.via !== 'bearer' || !caller.credentialId)
    throw new ApiError('invalid_request', 'Only a bearer token can revoke itself');
  await db().accessToken.update({ where: { id: caller.credentialId }, data: { revokedAt: new Date() } });
  return { revoked: true };
}

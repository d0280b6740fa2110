import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { TestApp } from './harness';

export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export const nowSeconds = (offset = 0) => Math.floor(Date.now() / 1000) + offset;

/** A signed body triple for the signed-message convention: `<action> <ts>`. */
export async function signedAction(account: PrivateKeyAccount, action: string, offsetSeconds = 0) {
  const message = `${action} ${nowSeconds(offsetSeconds)}`;
  return { message, signature: await account.signMessage({ message }) };
}

/** Signature headers for `<action> <ts>`. */
export async function signatureHeaders(account: PrivateKeyAccount, action: string) {
  const { message, signature } = await signedAction(account, `${action} ${Math.random().toString(36).slice(2, 10)}`);
  return { 'X-Agent-Address': account.address, 'X-Agent-Message': message, 'X-Message-Signature': signature };
}

export interface SignIn {
  token: string;
  api_key: string | null;
  wallet_address: string;
  scopes: string[];
  agent: any;
  expires_at: string;
}

/** The whole challenge + verify flow; returns the verify body. */
export async function signIn(
  app: TestApp,
  account: PrivateKeyAccount,
  options: { agentPubkey?: string; agentName?: string; scopes?: string[]; maxSpend?: number } = {},
): Promise<SignIn> {
  const challenge = await app.post('/api/v1/auth/challenge', {
    owner_wallet: account.address,
    agent_pubkey: options.agentPubkey ?? `pk-${account.address.slice(2, 10)}`,
    agent_name: options.agentName,
    requested_scopes: options.scopes,
    max_spend_claw_per_day: options.maxSpend,
  });
  if (challenge.status !== 200) throw new Error(`challenge failed: ${challenge.status} ${challenge.text}`);
  const signature = await account.signMessage({ message: challenge.body.challenge });
  const verify = await app.post('/api/v1/auth/verify', { challenge_id: challenge.body.challenge_id, signature });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.status} ${verify.text}`);
  return verify.body;
}

/** Registers a family A agent for a fresh or given wallet. */
export async function registerAgent(app: TestApp, account = newWallet(), fields: Record<string, unknown> = {}) {
  const agentName = (fields.agentName as string) ?? `Agent ${account.address.slice(2, 8)}`;
  const signed = await signedAction(account, `Register agent ${agentName}`);
  const response = await app.post('/api/register-agent', { agentName, walletAddress: account.address, ...signed, ...fields });
  return { account, response };
}

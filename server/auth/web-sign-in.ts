import { getAddress, type Address } from 'viem';
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { db } from '../core/db';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { verifyWalletSignature } from '../signatures/verify-signature';
import { siweChallenge, storeChallenge } from './create-challenge';

/**
 * Challenges for the human web app's session share the auth_challenges table (nonce, expiry,
 * single use) with the API's sign-in, marked by this agent_pubkey. The API's verify refuses
 * them and the web sign-in refuses the API's, so neither can be turned into the other.
 */
export const WEB_SIGN_IN_PUBKEY = 'web-session';
const WEB_STATEMENT = 'Sign in to the Vouchsafe web app.';

const refused = () =>
  new ApiError('invalid_signature', 'Sign-in challenge is unknown, expired, already used, or the signature does not match');

/** A Sign-In with Ethereum message for the web app, bound to this deployment's domain, the wallet and the chain. */
export async function createWebSignInChallenge(wallet: Address) {
  const { message, expiresAt } = siweChallenge(getAddress(wallet), WEB_STATEMENT);
  const id = await storeChallenge({
    wallet: getAddress(wallet),
    agentPubkey: WEB_SIGN_IN_PUBKEY,
    scopes: [],
    message,
    expiresAt,
  });
  return { challenge_id: id, message, expires_at: expiresAt.toISOString() };
}

/**
 * Checks the wallet's signature of a web challenge and consumes the challenge (once, atomically).
 * Returns the signed-in wallet.
 */
export async function verifyWebSignIn(challengeId: string, signature: string): Promise<Address> {
  const { config } = currentRuntime();
  const challenge = await db().authChallenge.findUnique({ where: { id: challengeId } });
  if (!challenge || challenge.agentPubkey !== WEB_SIGN_IN_PUBKEY || challenge.usedAt || challenge.expiresAt <= new Date()) {
    throw refused();
  }
  const wallet = getAddress(challenge.wallet);
  const parsed = parseSiweMessage(challenge.message);
  const base = new URL(config.PUBLIC_BASE_URL);
  if (
    !validateSiweMessage({ message: parsed, address: wallet, domain: base.host }) ||
    parsed.chainId !== config.CHAIN_ID ||
    parsed.statement !== WEB_STATEMENT
  ) {
    throw refused();
  }
  if (!(await verifyWalletSignature(wallet, challenge.message, signature))) throw refused();
  const consumed = await db().authChallenge.updateMany({
    where: { id: challenge.id, usedAt: null, expiresAt: { gt: new Date() } },
    data: { usedAt: new Date() },
  });
  if (consumed.count !== 1) throw refused();
  return wallet;
}

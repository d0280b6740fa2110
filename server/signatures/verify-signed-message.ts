import { createHash } from 'node:crypto';
import type { Address } from 'viem';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { verifyWalletSignature } from './verify-signature';

// Signed-message convention (ARCHITECTURE.md): the text names the action and ends with a Unix
// timestamp in seconds within 5 minutes of server time; a nonce may stand before the timestamp;
// each signed message is accepted once.
export const SIGNED_MESSAGE_WINDOW_SECONDS = 300;

const lowerAddresses = (text: string) => text.replace(/0x[0-9a-fA-F]{40}/g, (address) => address.toLowerCase());

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function invalid(message: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError('invalid_signature', message, details);
}

export interface SignedMessageInput {
  wallet: Address;
  message: string;
  signature: string;
  /**
   * The exact text the message must start with, for example `Register agent Alpha`; or the texts
   * one of which it must start with (an agent named by its handle or its id).
   */
  action: string | readonly string[];
  /** Current time in ms (tests). */
  now?: number;
}

/**
 * Checks that a signed message is exactly `<action> <unix seconds>` (a nonce may stand before the
 * timestamp) and fresh; returns its timestamp. A message signed for anything else is refused.
 */
export function checkMessageFreshness(message: string, action: string, now = Date.now()): number {
  // Exact text, except that an address may be written in any letter case (checksummed or not).
  const pattern = new RegExp(`^${escapeRegExp(lowerAddresses(action))} (?:[A-Za-z0-9_-]{1,64} )?(\\d{1,12})$`);
  const match = pattern.exec(lowerAddresses(message));
  const timestamp = Number(match?.[1]);
  if (!match || !Number.isFinite(timestamp)) {
    throw invalid(`The signed message must be "${action} <unix seconds>"`, {
      expected_message: `${action} <unix seconds>`,
    });
  }
  const skew = Math.abs(now / 1000 - timestamp);
  if (skew > SIGNED_MESSAGE_WINDOW_SECONDS) {
    throw invalid('The signed message timestamp is not within 5 minutes of server time', {
      server_time: Math.floor(now / 1000),
      timestamp,
    });
  }
  return timestamp;
}

/** Of the texts a message may sign, the one it starts with (else the first, which the refusal names). */
function actionFor(message: string, action: string | readonly string[]): string {
  if (typeof action === 'string') return action;
  const lower = lowerAddresses(message).toLowerCase();
  return action.find((candidate) => lower.startsWith(`${lowerAddresses(candidate).toLowerCase()} `)) ?? action[0]!;
}

/** Records a signed message as used; false when it was used before. */
export async function consumeSignedMessage(wallet: Address, message: string): Promise<boolean> {
  const key = createHash('sha256').update(`${wallet.toLowerCase()}\n${message}`).digest('hex');
  const rows = await database().sql.query(
    'INSERT INTO used_signatures (key) VALUES ($1) ON CONFLICT (key) DO NOTHING RETURNING key',
    [key],
  );
  return rows.length === 1;
}

/**
 * Verifies a body-signed or header-signed message: format and freshness, the signer, and that it
 * was never accepted before (a replay gets 401). Replay protection is keyed on signer and text,
 * so a re-encoded (malleated) signature of the same message is refused too.
 */
export async function verifySignedMessage(input: SignedMessageInput): Promise<void> {
  checkMessageFreshness(input.message, actionFor(input.message, input.action), input.now);
  if (!(await verifyWalletSignature(input.wallet, input.message, input.signature))) {
    throw invalid('The signature does not match the wallet and message');
  }
  if (!(await consumeSignedMessage(input.wallet, input.message))) {
    throw invalid('This signed message was already used; sign a new one');
  }
}

import { createHmac } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { currentRuntime } from '../core/runtime';
import { sharedState } from '../core/shared-state';
import { signBotPass } from './bot-cookie';

// The human pages' self-hosted proof-of-work check (ALTCHA; docs/ui.md, "Bot check"). The browser
// solves a PBKDF2 puzzle of BOT_CHECK_COST iterations per attempt (about 256 attempts on average),
// the server checks it in one derivation and answers with a signed cookie valid BOT_CHECK_TTL_HOURS.

const ALGORITHM = 'PBKDF2/SHA-256';
const CHALLENGE_TTL_MS = 10 * 60 * 1000;

const hmacSecret = () => createHmac('sha256', currentRuntime().config.AUTH_SECRET).update('altcha').digest('hex');

// Each solved challenge is accepted once per instance (until it expires anyway).
const usedChallenges = sharedState('bot-check.used', () => new Map<string, number>());

export async function createBotChallenge(): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: currentRuntime().config.BOT_CHECK_COST,
    deriveKey,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    hmacSignatureSecret: hmacSecret(),
  });
}

/** Checks the widget's payload (base64 JSON of {challenge, solution}); returns the cookie to set, or null. */
export async function verifyBotPayload(payload: unknown): Promise<{ value: string; maxAge: number } | null> {
  if (typeof payload !== 'string' || payload.length > 10_000) return null;
  let decoded: { challenge?: Challenge; solution?: Solution };
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as typeof decoded;
  } catch {
    return null;
  }
  if (!decoded?.challenge?.parameters || !decoded.solution || decoded.challenge.parameters.algorithm !== ALGORITHM) return null;
  const { config } = currentRuntime();
  if (decoded.challenge.parameters.cost !== config.BOT_CHECK_COST) return null;
  let result;
  try {
    result = await verifySolution({
      challenge: decoded.challenge,
      solution: decoded.solution,
      deriveKey,
      hmacSignatureSecret: hmacSecret(),
    });
  } catch {
    return null;
  }
  if (!result.verified) return null;
  const used = usedChallenges();
  const now = Date.now();
  for (const [key, expires] of used) if (expires <= now) used.delete(key);
  const key = decoded.challenge.signature ?? decoded.challenge.parameters.nonce;
  if (used.has(key)) return null;
  used.set(key, (decoded.challenge.parameters.expiresAt ?? now / 1000 + 600) * 1000);
  return signBotPass(config.AUTH_SECRET, config.BOT_CHECK_TTL_HOURS * 3600);
}

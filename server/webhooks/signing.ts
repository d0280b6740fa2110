import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

// Webhook secrets and signatures. A secret must stay readable to sign deliveries, so it is kept
// encrypted (AES-256-GCM, key derived from AUTH_SECRET), never hashed (docs/spec-decisions.md).

function key(authSecret: string): Buffer {
  return createHash('sha256').update(`vouchsafe webhook secrets\n${authSecret}`).digest();
}

export function encryptSecret(secret: string, authSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(authSecret), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join('.');
}

export function decryptSecret(stored: string, authSecret: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown webhook secret format');
  const decipher = createDecipheriv('aes-256-gcm', key(authSecret), Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
}

/** A generated secret: 32 random bytes as hex (used, like any secret, by its UTF-8 bytes). */
export function generateSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * The signature headers of one delivery (spec: Events, Signature; Standard Webhooks):
 * X-Service-Signature = sha256=<hex HMAC of the body>, and webhook-signature =
 * v1,<base64 HMAC of "<webhook-id>.<webhook-timestamp>.<body>">, both keyed by the secret's UTF-8 bytes.
 */
export function signatureHeaders(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const hex = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');
  const standard = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${messageId}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return { 'x-service-signature': `sha256=${hex}`, 'webhook-signature': `v1,${standard}` };
}

import { ApiError } from '../core/errors';

export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * Reads a JSON request body, refusing more than `limit` bytes (413) and malformed JSON (400).
 * An empty body reads as undefined.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_json', 'Request body is not valid JSON');
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `Request body is larger than ${limit} bytes`, { limit_bytes: limit });
}

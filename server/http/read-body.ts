import type { IncomingMessage } from 'node:http';
import { ApiError } from '../core/errors';

export const DEFAULT_BODY_LIMIT = 64 * 1024;

// A JSON request body, refusing more than `limit` bytes (413) and malformed JSON (400); an empty body
// reads as undefined. Read from a web Request (the Hono door) or from node's request (the node door).

/** The body of a web Request. */
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
  return parseJson(Buffer.concat(chunks));
}

/**
 * The body of node's request. Past the limit it stops reading (the door drains or drops what is
 * left once it has answered); a connection closed before the end fails the read.
 */
export function readNodeJsonBody(incoming: IncomingMessage, limit: number): Promise<unknown> {
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        incoming.pause();
        return finish(() => reject(tooLarge(limit)));
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(() => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    const onError = (error: Error) => finish(() => reject(error));
    const onClose = () => {
      if (!incoming.readableEnded) finish(() => reject(new Error('Client connection prematurely closed.')));
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  }).then(parseJson);
}

function parseJson(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
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

import { BaseError, HttpRequestError, TimeoutError, WebSocketRequestError } from 'viem';
import { rpcError } from '../chain/client';

/** True when the node itself failed (transport, timeout), as opposed to a call that reverted. */
export function isNodeFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return !(error instanceof Error) || !/revert/i.test(error.message);
  return Boolean(
    error.walk(
      (cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError || cause instanceof WebSocketRequestError,
    ),
  );
}

/**
 * A read that may legitimately fail (an optional view such as owner(), a locker interface the
 * contract may not have): null when the call reverts or returns nothing; a failing node throws 502.
 */
export async function tryRead<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isNodeFailure(error)) throw rpcError(error);
    return null;
  }
}

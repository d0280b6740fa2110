import { ContractFunctionExecutionError, HttpRequestError, RpcRequestError, TimeoutError, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyChainFailure } from './client';

const url = 'http://127.0.0.1:8545';
const refused = new HttpRequestError({
  url,
  cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
});
const slow = new TimeoutError({ body: { method: 'eth_call' }, url });

describe('chain failures', () => {
  it('classifies an unreachable node as unavailable, a slow one as timeout, an error answer as rpc_error', () => {
    expect(classifyChainFailure(refused)).toBe('unavailable');
    expect(classifyChainFailure(new HttpRequestError({ url, status: 503 }))).toBe('unavailable');
    expect(classifyChainFailure(slow)).toBe('timeout');
    expect(
      classifyChainFailure(new RpcRequestError({ body: {}, url, error: { code: -32000, message: 'execution reverted' } })),
    ).toBe('rpc_error');
  });

  it('sees through viem wrapping a transport failure in a contract call error', () => {
    const wrapped = new ContractFunctionExecutionError(slow, {
      abi: parseAbi(['function decimals() view returns (uint8)']),
      functionName: 'decimals',
    });
    expect(classifyChainFailure(wrapped)).toBe('timeout');
  });
});

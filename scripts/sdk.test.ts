import { describe, expect, it } from 'vitest';
import { staleSdkFiles } from './sdk';

describe('the TypeScript SDK (sdk/)', () => {
  it('is generated from the current OpenAPI document (run `npm run sdk` when this fails)', async () => {
    expect(await staleSdkFiles()).toEqual([]);
  }, 60_000);
});

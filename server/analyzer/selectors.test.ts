import { describe, expect, it } from 'vitest';
import { capabilitiesOf, pushedSelectors } from './selectors';

describe('selectors from bytecode', () => {
  it('reads PUSH4 operands and skips other push data', () => {
    // PUSH4 40c10f19, PUSH5 containing a fake "63 8456cb59" inside its data, PUSH4 a0712d68.
    const code = '0x6340c10f1964638456cb5963a0712d68';
    expect([...pushedSelectors(code)]).toEqual(['0x40c10f19', '0xa0712d68']);
  });

  it('maps known signatures to capabilities', () => {
    const code = '0x6340c10f19638456cb59';
    const capabilities = capabilitiesOf([code]);
    expect(capabilities.get('mint')).toEqual(['mint(address,uint256)']);
    expect(capabilities.get('pause')).toEqual(['pause()']);
    expect(capabilities.has('buyback')).toBe(false);
  });
});

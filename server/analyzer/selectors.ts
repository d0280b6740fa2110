import { toFunctionSelector, type Hex } from 'viem';

// Capabilities read from a contract's bytecode: the 4-byte selectors its dispatcher compares against
// (PUSH4 operands, skipping other push data), matched to known function signatures. A selector shows
// that the function exists; the analyzer confirms the dangerous ones by simulation where it can.

export type Capability = 'mint' | 'pause' | 'blacklist' | 'fee_setter' | 'buyback' | 'upgrade';

const SIGNATURES: Record<Capability, readonly string[]> = {
  mint: ['mint(address,uint256)', 'mint(uint256)', 'mintTo(address,uint256)', 'issue(uint256)', 'mint(address)'],
  pause: ['pause()', 'setPaused(bool)', 'pauseTrading()', 'setTradingEnabled(bool)', 'enableTrading(bool)'],
  blacklist: [
    'blacklist(address)',
    'addToBlacklist(address)',
    'addBlacklist(address)',
    'setBlacklist(address,bool)',
    'setBlacklisted(address,bool)',
    'blacklistAddress(address,bool)',
    'isBlacklisted(address)',
    'setBots(address[],bool)',
    'addBot(address)',
    'blockAccount(address)',
    'canSell(address)',
    'setCanSell(address,bool)',
  ],
  fee_setter: [
    'setFees(uint256,uint256)',
    'setFee(uint256)',
    'setTaxes(uint256,uint256)',
    'setBuyTax(uint256)',
    'setSellTax(uint256)',
    'updateFees(uint256,uint256)',
    'setTaxFeePercent(uint256)',
  ],
  buyback: [
    'buyback(address,uint256)',
    'buyback(uint256)',
    'buyBack(uint256)',
    'buyBackTokens(uint256)',
    'buybackAndBurn(uint256)',
    'buyBackAndBurn(uint256)',
    'manualBuyback(uint256)',
    'swapAndBuyback(uint256)',
    'setBuybackEnabled(bool)',
  ],
  upgrade: ['upgradeTo(address)', 'upgradeToAndCall(address,bytes)', 'changeAdmin(address)'],
};

const BY_SELECTOR = new Map<string, { capability: Capability; signature: string }>();
for (const [capability, signatures] of Object.entries(SIGNATURES) as [Capability, readonly string[]][]) {
  for (const signature of signatures) BY_SELECTOR.set(toFunctionSelector(signature), { capability, signature });
}

/** Every PUSH4 operand in the code (the dispatcher's selectors among them). */
export function pushedSelectors(code: Hex): Set<string> {
  const bytes = Buffer.from(code.slice(2), 'hex');
  const found = new Set<string>();
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i]!;
    if (op >= 0x60 && op <= 0x7f) {
      const size = op - 0x5f;
      if (op === 0x63 && i + 4 < bytes.length) found.add(`0x${bytes.subarray(i + 1, i + 5).toString('hex')}`);
      i += size;
    }
  }
  return found;
}

/** The known capability signatures present in the code, by capability. */
export function capabilitiesOf(codes: readonly Hex[]): Map<Capability, string[]> {
  const out = new Map<Capability, string[]>();
  for (const code of codes) {
    for (const selector of pushedSelectors(code)) {
      const known = BY_SELECTOR.get(selector);
      if (!known) continue;
      const list = out.get(known.capability) ?? [];
      if (!list.includes(known.signature)) list.push(known.signature);
      out.set(known.capability, list);
    }
  }
  return out;
}

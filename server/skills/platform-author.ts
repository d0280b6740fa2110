// The author of the platform's own skills (the five example skills, seeded by the
// 20261124045000_example_skills migration): an address derived from a label
// (keccak256("vouchsafe.platform"), last 20 bytes) whose key no one holds, so no wallet can sign as
// it to manage those skills; admins moderate them like any other. No agent row, no ledger account.
export const PLATFORM_AUTHOR_WALLET = '0xf77fE4C9c51FA864ebC7E7F5b46FB82889a8E54E';

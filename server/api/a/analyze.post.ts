// POST /api/analyze - safety analysis of a token contract from its bytecode and simulated trades
import { tierAtLeast, tierOfWallet } from '../../agents/tiers';
import { analyzeForCaller } from '../../analyzer/analyze-request';
import { endpoint } from '../../http/endpoint';
import { analyzeBody, analyzeResult } from '../../schemas/analysis';

// spec: 5 free analyses per IP per day without a tier; entry tier and above are unlimited.
const free = async ({ caller }: { caller: { wallet: `0x${string}` } | null }) =>
  caller === null || !tierAtLeast(await tierOfWallet(caller.wallet), 'entry');

export default endpoint({
  method: 'post',
  path: '/api/analyze',
  summary: 'Analyze a token contract (honeypot, taxes, ownership, liquidity, buyback) with an A-F grade',
  description:
    'Reads the bytecode, standard views and EIP-1967 slots, simulates a buy, a transfer and a sell with eth_call and state overrides (now, and 1 and 7 days ahead), and reads who holds the liquidity; the rubric is in docs/analyzer.md. Without a tier: 5 analyses per IP per day (429 with Retry-After); entry tier and above: unlimited. Sending `chain` or `wallet_address` selects the example-skill answer (risk_score, verdict, flags, details). Results are reused for up to 60 s within a range of 25 blocks.',
  tags: ['Analyzer'],
  auth: 'optional',
  signedAction: ({ body }) => `Analyze contract ${body.contract_address}`,
  rateLimit: [{ policy: 'analyze_free', when: free, refundOnError: true }],
  body: analyzeBody,
  status: 200,
  response: analyzeResult,
  errors: {
    400: 'chain_id (or chain) is not the chain this instance serves',
    422: 'There is no contract at the address (not_a_contract)',
    502: 'The chain node failed (chain_error)',
    503: 'No chain is available (chain_unavailable)',
  },
  handler: ({ body, caller }) =>
    analyzeForCaller(
      { contractAddress: body.contract_address, chainId: body.chain_id, chain: body.chain, walletAddress: body.wallet_address },
      caller,
    ),
});

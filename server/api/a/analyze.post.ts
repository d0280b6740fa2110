// POST /api/analyze - safety analysis of a token contract from its bytecode and simulated trades
import { tierAtLeast, tierOfWallet } from '../../agents/tiers';
import { analyzeForCaller } from '../../analyzer/analyze-request';
import { endpoint, reply } from '../../http/endpoint';
import { analyzeBody, analyzeResult } from '../../schemas/analysis';
import { analysisResource, freeLimitReached, paidAnalysisContext } from '../../x402/analysis-price';
import { runPaid } from '../../x402/pay';

// spec: 5 free analyses per IP per day without a tier; entry tier and above are unlimited.
const free = async ({ caller }: { caller: { wallet: `0x${string}` } | null }) =>
  caller === null || !tierAtLeast(await tierOfWallet(caller.wallet), 'entry');

export default endpoint({
  method: 'post',
  path: '/api/analyze',
  summary: 'Analyze a token contract (honeypot, taxes, ownership, liquidity, buyback) with an A-F grade',
  description:
    'Reads the bytecode, standard views and EIP-1967 slots, simulates a buy, a transfer and a sell with eth_call and state overrides (now, and 1 and 7 days ahead), and reads who holds the liquidity; the rubric is in docs/analyzer.md. Without a tier: 5 analyses per IP per day; past them 402 payment_required with a v2 PAYMENT-REQUIRED header (X402_ANALYZE_PRICE_USDC over x402, docs/payments.md) and Retry-After (429 when x402 is off); a request with PAYMENT-SIGNATURE pays instead of counting and is answered with PAYMENT-RESPONSE; entry tier and above: unlimited. Sending `chain` or `wallet_address` selects the example-skill answer (risk_score, verdict, flags, details). Results are reused for up to 60 s within a range of 25 blocks.',
  tags: ['Analyzer'],
  auth: 'optional',
  signedAction: ({ body }) => `Analyze contract ${body.contract_address}`,
  // Past the limit: 402 with an x402 offer (and Retry-After); a paid analysis does not count against it.
  rateLimit: [
    {
      policy: 'analyze_free',
      when: async (input) => !(await paidAnalysisContext(input.request)) && (await free(input)),
      refundOnError: true,
      exceeded: (input, limited) => freeLimitReached(input.request, limited),
    },
  ],
  body: analyzeBody,
  status: 200,
  response: analyzeResult,
  errors: {
    400: 'chain_id (or chain) is not the chain this instance serves',
    402: 'Free analyses used up (payment_required: PAYMENT-REQUIRED and Retry-After headers), or the x402 payment was refused (payment_invalid) or not settled (payment_failed)',
    409: 'A payment with the same payment-identifier is still being processed (payment_in_progress)',
    422: 'There is no contract at the address (not_a_contract)',
    502: 'The chain node answered with an error (chain_error)',
    503: 'No chain is available or the node cannot be reached (chain_unavailable, Retry-After)',
    504: 'The chain node did not answer within the time limit (chain_timeout)',
  },
  handler: async ({ body, caller, request }) => {
    const run = () =>
      analyzeForCaller(
        { contractAddress: body.contract_address, chainId: body.chain_id, chain: body.chain, walletAddress: body.wallet_address },
        caller,
      );
    const context = await paidAnalysisContext(request);
    // A tier analyses without paying, whatever it sends.
    if (!context || !(await free({ caller }))) return run();
    const paid = await runPaid(context, analysisResource(context, request), caller?.wallet ?? null, run);
    return reply(paid.status, paid.body, paid.headers);
  },
});

import { z } from '@hono/zod-openapi';
import { addressOut, timestamp, walletAddress } from './common';

// The contract analyzer (spec: ContractAnalysis, POST /api/analyze, the example-skill variant).

/** Chain names the example-skill variant accepts (`chain`), and their chain ids. */
export const CHAIN_NAMES = { base: 8453, 'base-sepolia': 84532 } as const;

export const analyzeBody = z
  .object({
    contract_address: walletAddress.openapi({ description: 'The token contract to analyze' }),
    chain_id: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: 'EVM chain id (default 8453); must be the chain this instance serves' }),
    chain: z
      .enum(Object.keys(CHAIN_NAMES) as [keyof typeof CHAIN_NAMES, ...(keyof typeof CHAIN_NAMES)[]])
      .optional()
      .openapi({ description: 'Example-skill variant: chain name (default base). Selects the variant answer.' }),
    wallet_address: walletAddress.optional().openapi({
      description:
        'Example-skill variant: the wallet whose tier lifts the free limit; counts only when the request is authenticated as it. Selects the variant answer.',
    }),
  })
  .openapi('AnalyzeRequest');

export const contractAnalysis = z
  .strictObject({
    contract_address: addressOut,
    chain_id: z.number().int(),
    safety_rating: z.enum(['A', 'B', 'C', 'D', 'F']),
    risk_level: z.enum(['low', 'medium', 'high', 'critical']),
    is_honeypot: z.boolean(),
    fees: z.strictObject({
      buy_fee_percent: z.number(),
      sell_fee_percent: z.number(),
      transfer_fee_percent: z.number(),
    }),
    ownership: z.strictObject({
      is_renounced: z.boolean(),
      is_multisig: z.boolean(),
      owner_address: z.string(),
    }),
    liquidity: z.strictObject({
      is_locked: z.boolean(),
      lock_duration_days: z
        .number()
        .int()
        .openapi({ description: 'Days until the lock ends; 36500 when the LP tokens are burned' }),
    }),
    buyback: z.strictObject({ has_buyback: z.boolean() }),
    risk_factors: z.array(z.string()).openapi({ description: '`<code>: <explanation>`, see docs/analyzer.md' }),
    summary: z.string(),
    analyzed_at: timestamp,
  })
  .openapi('ContractAnalysis');

export const skillAnalysis = z
  .strictObject({
    contract_address: addressOut,
    chain: z.string(),
    risk_score: z.number().int().min(0).max(100).openapi({ description: 'Higher is riskier' }),
    verdict: z.enum(['safe', 'caution', 'danger']),
    flags: z.array(z.string()),
    details: z.strictObject({
      honeypot: z.boolean(),
      mint_authority: z.boolean(),
      owner_renounced: z.boolean(),
      liquidity_locked: z.boolean(),
      proxy_contract: z.boolean(),
      multisig_owner: z.boolean(),
      has_buyback: z.boolean(),
      pausable: z.boolean(),
      blacklist: z.boolean(),
    }),
    analyzed_at: timestamp,
  })
  .openapi('SkillContractAnalysis', { description: 'The example-skill variant of the analysis' });

export const analyzeResult = z.union([contractAnalysis, skillAnalysis]).openapi('AnalyzeResult');

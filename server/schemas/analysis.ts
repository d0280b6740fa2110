import { z } from '@hono/zod-openapi';
import { FLAG_SEVERITIES, HOLDER_TAGS, RISK_LEVELS, SAFETY_RATINGS } from './enums';
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

const check = (description: string) =>
  z
    .boolean()
    .nullable()
    .openapi({ description: `${description}; null when it could not be decided` });

/** The GoPlus-style checks (docs/analyzer.md, "Checks"). */
export const analysisChecks = z
  .strictObject({
    is_mintable: check('New tokens can be minted by a privileged account'),
    is_proxy: check('Upgradeable: the code can be replaced'),
    is_blacklisted: check('A privileged account can block addresses'),
    is_whitelisted: check('Only listed addresses may trade'),
    is_anti_whale: check('A max-transaction or max-wallet limit applies'),
    anti_whale_modifiable: check('A privileged account can change that limit'),
    trading_cooldown: check('A holder must wait between sales'),
    transfer_pausable: check('A privileged account can pause transfers'),
    cannot_buy: check('A fresh account cannot buy'),
    cannot_sell_all: check('A holder cannot sell 100% of a balance'),
    slippage_modifiable: check('A privileged account can change the taxes'),
    hidden_owner: check('A privileged address other than owner()'),
    can_take_back_ownership: check('Renounced ownership can be recovered'),
    owner_change_balance: check("A privileged account can set or burn holders' balances"),
    selfdestruct: check('The code can self-destruct'),
    external_call: check('Transfers call an address the owner can change'),
  })
  .openapi('AnalysisChecks');

const percent = (description: string) =>
  z
    .number()
    .nullable()
    .openapi({ description: `${description}, in percent (5 means 5%)` });

export const analysisFlag = z
  .strictObject({
    code: z.string().openapi({
      description:
        'A `checks` name, or honeypot, high_sell_tax, holder_concentration, unlocked_liquidity, unverified_owner_privileges',
    }),
    severity: z.enum(FLAG_SEVERITIES),
    message: z.string(),
  })
  .openapi('AnalysisFlag');

export const contractAnalysis = z
  .strictObject({
    contract_address: addressOut,
    chain_id: z.number().int(),
    safety_rating: z.enum(SAFETY_RATINGS),
    risk_level: z.enum(RISK_LEVELS),
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
    checks: analysisChecks,
    holders: z.strictObject({
      holder_count: z
        .number()
        .int()
        .nullable()
        .openapi({ description: 'Accounts with a balance; null when the Transfer history could not be read in full' }),
      top10_percent: percent('Share of the supply held by the 10 largest holders'),
      top_holders: z
        .array(
          z.strictObject({
            address: addressOut,
            percent: z.number(),
            is_contract: z.boolean(),
            is_locked: z.boolean().openapi({ description: 'A burn address or a known liquidity locker' }),
            tag: z.enum(HOLDER_TAGS).nullable(),
          }),
        )
        .nullable(),
    }),
    creator: z.strictObject({
      address: addressOut.nullable(),
      balance_percent: percent("The creator's share of the supply"),
    }),
    owner_balance_percent: percent("owner()'s share of the supply (null without an owner)"),
    simulation: z.strictObject({
      buy_tax: percent('Measured buy tax'),
      sell_tax: percent('Measured sell tax'),
      transfer_tax: percent('Measured tax on a transfer between two non-owner holders'),
      buy_gas: z.number().int().nullable(),
      sell_gas: z.number().int().nullable(),
      max_sell_percent: percent('Largest share of a bought balance sellable in one transaction (bisection)'),
    }),
    flags: z.array(analysisFlag),
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
      ...analysisChecks.shape,
    }),
    analyzed_at: timestamp,
  })
  .openapi('SkillContractAnalysis', { description: 'The example-skill variant of the analysis' });

export const analyzeResult = z.union([contractAnalysis, skillAnalysis]).openapi('AnalyzeResult');

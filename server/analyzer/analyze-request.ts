import type { Address } from 'viem';
import { chain, chainDeadline } from '../chain/client';
import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { sharedCache } from '../core/shared-state';
import { emit } from '../events/emit';
import { CHAIN_NAMES } from '../schemas/analysis';
import { analyzeContract, latestBlock, type Analysis, type AnalysisResult } from './analyze-contract';
import type { Checks } from './checks';

// POST /api/analyze: which chain, the result cache, scan.completed, and the two answer shapes.

/** Results are reused within one range of this many blocks (about 50 s on Base) and for at most RESULT_TTL_MS. */
export const BLOCK_RANGE = 25n;
export const RESULT_TTL_MS = 60_000;

const results = sharedCache<AnalysisResult>('analyzer.results', { ttlMs: RESULT_TTL_MS, maxEntries: 5_000, dropOn: [] });

export interface AnalyzeInput {
  contractAddress: Address;
  chainId?: number;
  chain?: keyof typeof CHAIN_NAMES;
  walletAddress?: Address;
}

export interface SkillAnalysis {
  contract_address: Address;
  chain: string;
  risk_score: number;
  verdict: 'safe' | 'caution' | 'danger';
  flags: string[];
  details: Record<
    | 'honeypot'
    | 'mint_authority'
    | 'owner_renounced'
    | 'liquidity_locked'
    | 'proxy_contract'
    | 'multisig_owner'
    | 'has_buyback'
    | 'pausable'
    | 'blacklist',
    boolean
  > &
    Checks;
  analyzed_at: string;
}

function requestedChainId(input: AnalyzeInput): number {
  const named = input.chain ? CHAIN_NAMES[input.chain] : undefined;
  if (named !== undefined && input.chainId !== undefined && named !== input.chainId) {
    throw new ApiError('invalid_request', `chain ${input.chain} is chain id ${named}, not ${input.chainId}`, {
      fields: { chain_id: 'does not match chain' },
    });
  }
  return input.chainId ?? named ?? 8453;
}

/** The example-skill variant: risk score, verdict, flags (the risk factors' codes) and capability booleans. */
export function skillVariant(result: AnalysisResult, chainName: string): SkillAnalysis {
  const { analysis, findings } = result;
  const verdict =
    analysis.safety_rating === 'F'
      ? 'danger'
      : analysis.safety_rating === 'A' || analysis.safety_rating === 'B'
        ? 'safe'
        : 'caution';
  const caps = findings.capabilities;
  return {
    contract_address: analysis.contract_address,
    chain: chainName,
    risk_score: analysis.is_honeypot ? 100 : result.score,
    verdict,
    flags: analysis.risk_factors.map((factor) => factor.split(':')[0]!),
    details: {
      honeypot: analysis.is_honeypot,
      mint_authority: caps.mint.length > 0 && (!findings.owner.renounced || caps.mintConfirmed),
      owner_renounced: analysis.ownership.is_renounced,
      liquidity_locked: analysis.liquidity.is_locked,
      proxy_contract: Boolean(findings.proxy.implementation ?? findings.proxy.beacon) || caps.upgrade.length > 0,
      multisig_owner: analysis.ownership.is_multisig,
      has_buyback: analysis.buyback.has_buyback,
      pausable: caps.pause.length > 0,
      blacklist: caps.blacklist.length > 0,
      ...analysis.checks,
    },
    analyzed_at: analysis.analyzed_at,
  };
}

export async function analyzeForCaller(input: AnalyzeInput, caller: Caller | null): Promise<Analysis | SkillAnalysis> {
  const chainId = requestedChainId(input);
  const { config } = currentRuntime();
  if (chainId !== config.CHAIN_ID) {
    throw new ApiError('invalid_request', `This instance analyzes chain ${config.CHAIN_ID} only, not ${chainId}`, {
      fields: { chain_id: `must be ${config.CHAIN_ID}` },
      supported_chain_id: config.CHAIN_ID,
    });
  }
  // Every chain read of one analysis shares one deadline: a slow node answers 504, a dead one 503.
  const deadline = chainDeadline();
  const context = await deadline.run(chain());
  const block = await deadline.run(latestBlock(context.client));
  const key = `${chainId}:${input.contractAddress}:${block.number / BLOCK_RANGE}`;
  const result = await deadline.run(results().get(key, () => analyzeContract(input.contractAddress, { context, block })));

  if (caller) {
    const { analysis } = result;
    await emit(
      'scan.completed',
      {
        contract_address: analysis.contract_address,
        chain_id: analysis.chain_id,
        safety_rating: analysis.safety_rating,
        risk_level: analysis.risk_level,
        is_honeypot: analysis.is_honeypot,
        requested_by: caller.wallet,
        analyzed_at: analysis.analyzed_at,
      },
      database().sql,
      { audience: [caller.wallet] },
    );
  }
  const variant = input.chain !== undefined || input.walletAddress !== undefined;
  if (!variant) return result.analysis;
  const chainName = (Object.entries(CHAIN_NAMES).find(([, id]) => id === chainId)?.[0] ?? String(chainId)) as string;
  return skillVariant(result, chainName);
}

/** Drops every cached result (tests, after the chain state was reverted). */
export function forgetAnalyses(): void {
  results().clear();
}

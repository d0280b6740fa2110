import { chainIfEnabled } from '../chain/client';
import { currentRuntime } from '../core/runtime';

/**
 * GET /api/v1/credits/deposit: the treasury and accepted tokens in use (configured, or the bundled
 * devnet's). Without a chain (or when it cannot be opened) the configured values answer, and an
 * unconfigured treasury is null rather than invented.
 */
export async function depositInstructions() {
  const { config } = currentRuntime();
  const context = await chainIfEnabled().catch(() => null);
  const treasury = context?.addresses.treasury ?? config.TREASURY_ADDRESS ?? null;
  const tokens =
    context?.addresses.acceptedDepositTokens ??
    config.ACCEPTED_DEPOSIT_TOKENS ??
    (config.PLATFORM_TOKEN_ADDRESS ? [config.PLATFORM_TOKEN_ADDRESS] : []);
  return {
    chain_id: config.CHAIN_ID,
    treasury_address: treasury,
    accepted_tokens: tokens.map((address) => ({ address, rate_claw_per_token: 1 })),
    rate: '1 token = 1 CLAW',
    confirmations: context?.depositConfirmations ?? config.DEPOSIT_CONFIRMATIONS ?? (config.CHAIN_RPC_URL ? 2 : 0),
    how_to: 'Transfer an accepted token to the treasury address, then POST /api/v1/credits/deposit with {tx_hash}.',
  };
}

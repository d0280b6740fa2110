import { currentRuntime } from '../core/runtime';

/**
 * GET /api/v1/credits/deposit. The addresses come from configuration; until the chain layer
 * supplies the devnet's, an unconfigured treasury is reported as null rather than invented.
 */
export function depositInstructions() {
  const { config } = currentRuntime();
  const tokens = config.ACCEPTED_DEPOSIT_TOKENS ?? (config.PLATFORM_TOKEN_ADDRESS ? [config.PLATFORM_TOKEN_ADDRESS] : []);
  return {
    chain_id: config.CHAIN_ID,
    treasury_address: config.TREASURY_ADDRESS ?? null,
    accepted_tokens: tokens.map((address) => ({ address, rate_claw_per_token: 1 })),
    rate: '1 token = 1 CLAW',
    confirmations: config.DEPOSIT_CONFIRMATIONS ?? (config.CHAIN_RPC_URL ? 2 : 0),
    how_to: 'Transfer an accepted token to the treasury address, then POST /api/v1/credits/deposit with {tx_hash}.',
  };
}

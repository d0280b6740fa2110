// POST /api/v1/devnet/faucet - bundled devnet only: platform tokens and gas ETH for a wallet
import { refreshTier } from '../../agents/tiers';
import { useFaucet } from '../../chain/faucet';
import { endpoint } from '../../http/endpoint';
import { faucetBody, faucetResult } from '../../schemas/devnet';

export default endpoint({
  method: 'post',
  path: '/api/v1/devnet/faucet',
  summary: 'Devnet faucet: mint platform tokens (a tier) and devnet USDC, and add gas ETH to a wallet',
  description:
    'Exists only while the server runs the bundled devnet (CHAIN_RPC_URL unset); 404 against a real node. The wallet’s tier is read again at once.',
  tags: ['Devnet'],
  auth: 'none',
  body: faucetBody,
  status: 200,
  response: faucetResult,
  errors: { 404: 'Not running the bundled devnet' },
  handler: async ({ body }) => {
    const result = await useFaucet(body.wallet_address, body.platform_tokens, body.eth, body.usdc);
    return { ...result, tier: await refreshTier(body.wallet_address) };
  },
});

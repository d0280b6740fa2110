// POST /api/v1/trade/swap - relay a swap transaction the caller's wallet signed
import type { Hex } from 'viem';
import { endpoint } from '../../http/endpoint';
import { swapBody, swapExecution } from '../../schemas/trade';
import { relaySwap } from '../../trade/swap';

export default endpoint({
  method: 'post',
  path: '/api/v1/trade/swap',
  summary: 'Relay a signed swap transaction (non-custodial)',
  description:
    'signed_tx is a raw transaction signed by the caller’s wallet for chain 8453 (CHAIN_ID) whose target is an allowed swap router (SWAP_ROUTER_ALLOWLIST); it is sent with eth_sendRawTransaction. The service never holds keys.',
  tags: ['Trade'],
  auth: ['bearer'],
  scopes: ['agents.invoke'],
  rateLimit: 'write',
  body: swapBody,
  status: 200,
  response: swapExecution,
  errors: {
    400: 'Not a signed transaction',
    403: 'Signed by another wallet (reason wrong_sender) or missing scope',
    422: 'Another chain (wrong_chain), a router that is not allowed (router_not_allowed), or refused by the node (rejected_by_node)',
    502: 'The chain node failed',
  },
  handler: ({ caller, body }) => {
    const { signed_tx: signedTx, ...details } = body;
    return relaySwap(caller, signedTx as Hex, details);
  },
});

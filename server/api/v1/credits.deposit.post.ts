// POST /api/v1/credits/deposit - claim CLAW for a token transfer to the treasury
import { claimDeposit } from '../../credits/claim-deposit';
import { endpoint } from '../../http/endpoint';
import { depositClaim, depositClaimBody } from '../../schemas/credits';

export default endpoint({
  method: 'post',
  path: '/api/v1/credits/deposit',
  summary: 'Claim a deposit: 1 CLAW per whole accepted token your wallet transferred to the treasury',
  description:
    'Checks the transaction on the chain: a successful ERC-20 Transfer of an accepted token from the caller’s wallet to the treasury, with DEPOSIT_CONFIRMATIONS blocks on top of it. Each transaction hash is credited once, ever.',
  tags: ['Credits'],
  auth: ['bearer', 'api_key'],
  body: depositClaimBody,
  status: 200,
  response: depositClaim,
  errors: {
    403: 'The transfer to the treasury came from another wallet (deposit_not_yours)',
    404: 'No transaction with this hash on the chain (transaction_not_found)',
    409: 'Not confirmed yet (deposit_pending, details.confirmations_remaining) or already claimed (deposit_already_claimed)',
    422: 'Failed transaction, no transfer to the treasury, a token that is not accepted, or too small (deposit_invalid, details.reason)',
    502: 'The chain node answered with an error (chain_error)',
    503: 'No chain or no treasury configured, or the node cannot be reached (chain_unavailable, Retry-After)',
    504: 'The chain node did not answer within the time limit (chain_timeout)',
  },
  handler: ({ caller, body }) => claimDeposit(caller!, body.tx_hash as `0x${string}`),
});

import { formatUnits } from 'viem';
import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { walletAccount, WORLD_X402 } from '../credits/accounts';
import { balanceOf, post } from '../credits/ledger';
import { chainEnabled } from '../chain/client';
import { clawForUsdc, USDC_UNITS, usdcForClaw, x402Context } from './context';
import {
  acceptPayment,
  boughtCte,
  hasPayment,
  paymentRequired,
  paymentResponseHeaders,
  recordAnswer,
  settlePayment,
  type PaidResource,
} from './pay';

// POST /api/v1/credits/topup: sells CLAW for USDC over x402 at X402_CLAW_PER_USDC. The payment settles
// first; then one ledger statement moves the CLAW from world:x402 to the wallet and records what the
// payment bought (the ledger still sums to zero: world:x402 goes negative by what came in).

export interface TopupResult {
  credited: true;
  wallet_address: string;
  amount_usdc: string;
  amount_claw: number;
  new_balance_claw: number;
  tx_hash: string;
  network: string;
  payer: string;
}

export async function topUpCredits(
  request: Request,
  caller: Caller | null,
  wanted: { usdc?: bigint; claw?: bigint },
): Promise<{ status: number; body: TopupResult; headers: Record<string, string> }> {
  const context = await x402Context();
  if (!context) {
    // Without a chain this is the chain endpoints' honest 503; with one, payments are switched off.
    if (!chainEnabled()) throw new ApiError('chain_unavailable', 'No chain is configured for this instance');
    throw new ApiError('service_unavailable', 'x402 payments are not configured on this instance');
  }
  const amount = wanted.usdc ?? (wanted.claw !== undefined ? usdcForClaw(context, wanted.claw) : 10n ** BigInt(USDC_UNITS));
  if (amount <= 0n || amount > context.topupMax) {
    throw new ApiError(
      'invalid_request',
      `amount_usdc must be more than 0 and at most ${formatUnits(context.topupMax, USDC_UNITS)}`,
      {
        fields: {
          [wanted.claw !== undefined ? 'amount_claw' : 'amount_usdc']:
            `at most ${formatUnits(context.topupMax, USDC_UNITS)} USDC`,
        },
      },
    );
  }
  const claw = clawForUsdc(context, amount);
  if (claw <= 0n) throw new ApiError('invalid_request', 'amount_usdc buys no CLAW', { fields: { amount_usdc: 'too small' } });
  const resource: PaidResource = {
    kind: 'topup',
    request,
    amount,
    description: `${microToClaw(claw)} CLAW for ${formatUnits(amount, USDC_UNITS)} USDC`,
  };
  if (!hasPayment(request.headers))
    throw await paymentRequired(context, resource, { details: { amount_claw: microToClaw(claw) } });

  const accepted = await acceptPayment(context, resource, caller?.wallet ?? null);
  if (accepted.kind === 'replay')
    return { status: accepted.status, body: accepted.body as TopupResult, headers: accepted.headers };
  const { payment } = accepted;
  const settlement = await settlePayment(context, resource, payment);
  // Authenticated: the caller's wallet; otherwise the wallet that paid.
  const wallet = caller?.wallet ?? payment.payer;
  const { sql } = database();
  await post(
    {
      reason: 'x402_topup',
      refType: 'x402_payment',
      refId: payment.id,
      idempotencyKey: `x402:${payment.id}`,
      postings: [
        { account: WORLD_X402, amount: -claw },
        { account: walletAccount(wallet), amount: claw },
      ],
      alongside: (p) => [boughtCte(p, payment, claw, { type: 'wallet', id: wallet })],
    },
    sql,
  );
  const body: TopupResult = {
    credited: true,
    wallet_address: wallet,
    amount_usdc: formatUnits(amount, USDC_UNITS),
    amount_claw: microToClaw(claw),
    new_balance_claw: microToClaw(await balanceOf(walletAccount(wallet), sql)),
    tx_hash: settlement.transaction,
    network: settlement.network,
    payer: payment.payer,
  };
  await recordAnswer(payment, 200, body);
  return { status: 200, body, headers: paymentResponseHeaders(settlement) };
}

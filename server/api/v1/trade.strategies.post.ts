// POST /api/v1/trade/strategies - create a strategy (costs 100 CLAW)
import { endpoint, reply } from '../../http/endpoint';
import { createStrategyBody, strategyCreated } from '../../schemas/trade';
import { createStrategy } from '../../trade/create-strategy';

export default endpoint({
  method: 'post',
  path: '/api/v1/trade/strategies',
  summary: 'Create a strategy (100 CLAW)',
  description:
    'Non-custodial: at each interval the service records a fresh quote with the unsigned swap for the owner’s wallet (an execution, status quoted); the owner signs and relays it. limit/take-profit need trigger_price (fire at or above), stop-loss fires at or below. Reaching max_executions completes the strategy.',
  tags: ['Trade'],
  auth: ['bearer'],
  scopes: ['agents.invoke'],
  rateLimit: 'write',
  idempotent: true,
  body: createStrategyBody,
  status: 201,
  response: strategyCreated,
  errors: { 402: 'Insufficient CLAW for the 100 CLAW fee', 409: 'Too many strategies', 422: 'A token that is not an ERC-20' },
  async handler({ caller, body }) {
    return reply(
      201,
      await createStrategy(caller, {
        name: body.name,
        strategyType: body.strategy_type,
        tokenIn: body.token_in,
        tokenOut: body.token_out,
        amountInRaw: body.amount_in_raw,
        intervalSeconds: body.interval_seconds,
        maxExecutions: body.max_executions,
        slippageBps: body.slippage_bps,
        triggerPrice: body.trigger_price,
      }),
    );
  },
});

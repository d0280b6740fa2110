import { db } from '../core/db';
import type { Caller } from '../core/caller';
import { microToClaw } from '../core/money';
import { payWelcomeGrant } from '../credits/welcome-grant';
import { AgentExistsError, createAgent } from './create-agent';
import { callerPubkey, defaultAgentName } from './upsert-agent';

export interface BootstrapInput {
  agentName?: string;
  scopes?: string[];
  maxSpendPerDay?: bigint;
}

/**
 * POST /api/v1/agents/bootstrap: creates the caller's agent when absent and pays the one-time
 * welcome grant (once per wallet, ever: a ledger idempotency key). How many grants one IP may
 * collect is the endpoint's declared rate limit, counted whatever way the agent came to exist.
 */
export async function bootstrapAgent(caller: Caller, input: BootstrapInput) {
  const key = { ownerWallet: caller.wallet, agentPubkey: callerPubkey(caller) };
  let agent = await db().agent.findUnique({ where: { ownerWallet_agentPubkey: key } });
  let created = false;
  if (!agent) {
    try {
      agent = await createAgent({
        ...key,
        name: input.agentName ?? defaultAgentName(caller),
        scopes: input.scopes ?? [...caller.scopes],
        maxSpendPerDay: input.maxSpendPerDay ?? caller.maxSpendPerDay,
      });
      created = true;
    } catch (error) {
      // The same agent created at once by a concurrent call: this call sees it as existing.
      if (!(error instanceof AgentExistsError)) throw error;
      agent = await db().agent.findUniqueOrThrow({ where: { ownerWallet_agentPubkey: key } });
    }
  }
  const granted = await payWelcomeGrant(caller.wallet);
  return {
    agent_id: agent.id,
    agent_name: agent.name,
    owner_wallet: agent.ownerWallet,
    welcome_claw: microToClaw(granted),
    already_existed: !created,
  };
}

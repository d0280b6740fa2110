// The example of sdk/README.md, type-checked with the project: sign in with a wallet, bootstrap the
// agent (welcome grant), publish it as callable, and invoke another agent.
import { privateKeyToAccount } from 'viem/accounts';
import { createVouchsafeClient, VouchsafeError } from './index';

export async function example(baseUrl: string, privateKey: `0x${string}`, targetAgent: string) {
  const vouchsafe = createVouchsafeClient({ baseUrl });

  // 1. Sign in: challenge, personal_sign, verify. The client keeps the token.
  const session = await vouchsafe.signIn(privateKeyToAccount(privateKey), { agentName: 'My agent' });
  console.log('signed in as', session.wallet_address, 'with', session.scopes.length, 'scopes');

  // 2. Bootstrap: creates the agent if absent and pays the one-time welcome grant.
  const agent = await vouchsafe.bootstrap({ agent_name: 'My agent' });
  console.log(agent.agent_id, 'welcome credit:', agent.welcome_claw, 'CLAW');

  // Any endpoint, fully typed: make the agent callable at 0.5 CLAW per call.
  const { data, error } = await vouchsafe.api.PATCH('/api/v1/agents/{id}', {
    params: { path: { id: agent.agent_id } },
    body: { is_callable: true, invoke_url: 'https://agent.example/invoke', price_claw_per_call: 0.5 },
  });
  if (error) throw new Error(`${error.code}: ${error.error}`);
  console.log('callable:', data.is_callable);

  // 3. Invoke another agent (UUID or handle); the fee is charged from the balance.
  try {
    const result = await vouchsafe.invoke(targetAgent, { question: 'What is the trust score of 0xabc...?' });
    console.log(result.status, result.fee_claw, result.response);
  } catch (failure) {
    if (failure instanceof VouchsafeError && failure.code === 'insufficient_credits') console.log('top up first');
    else throw failure;
  }
  console.log('balance:', (await vouchsafe.credits()).balance_claw);
}

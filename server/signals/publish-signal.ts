import { randomUUID } from 'node:crypto';
import { holdAccount } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { database } from '../core/db';
import type { Caller } from '../core/caller';
import { microToClaw } from '../core/money';

export interface PublishSignalInput {
  title: string;
  body: string;
  signalType: string;
  asset: string;
  confidence: number;
  stake: bigint;
}

/**
 * POST /api/v1/signals: the publisher's stake (at least 1 CLAW) moves into the signal's escrow and
 * the signal is written by the same statement (402 and no signal when it cannot pay).
 */
export async function publishSignal(caller: Caller, input: PublishSignalInput) {
  const id = randomUUID();
  const createdAt = new Date();
  await callerPays(
    {
      caller,
      amount: input.stake,
      to: holdAccount('signal', id),
      reason: 'signal_stake',
      ref: { type: 'signal', id },
      alongside: (p) => [
        `signal AS (
          INSERT INTO signals (id, publisher_wallet, publisher_agent_id, title, body, signal_type, asset, confidence, stake, created_at)
          SELECT ${p.add(id)}::uuid, ${p.add(caller.wallet)}, ${p.add(caller.agentId)}::uuid, ${p.add(input.title)}, ${p.add(input.body)},
            ${p.add(input.signalType)}, ${p.add(input.asset)}, ${p.add(input.confidence)}::float8, ${p.add(input.stake.toString())}::bigint,
            ${p.add(createdAt)}::timestamptz
          FROM txn RETURNING id)`,
      ],
    },
    database().sql,
  );
  return {
    signal_id: id,
    publisher_wallet: caller.wallet,
    stake_claw: microToClaw(input.stake),
    created_at: createdAt.toISOString(),
  };
}

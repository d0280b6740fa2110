import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, withTransaction } from '../server/core/db';
import { emit } from '../server/events/emit';
import { startWebhookWorker } from '../server/webhooks/deliver-webhooks';
import { wakeDeliveries } from '../server/webhooks/redeliver-webhook';
import { startTestApp, type TestApp } from './harness';

// The webhook worker's passes woken by events (deliver-webhooks.ts, SubscribedNames): an event no active webhook
// subscribes to wakes no pass (its fan-out would make nothing); a webhook created, paused or re-subscribed is
// heeded by the next event, through the `webhook` change notice, long before the timed pass. The timed pass runs
// once a minute here, so the cursor moving within a second can only be a pass the event woke. (Before the names
// are read, and while they are read again after a change, an event wakes a pass: hence "eventually".)

const TIMED_PASS_MS = 60_000;
const OWNER = '0x00000000000000000000000000000000000000aa';

let app: TestApp;
let stop: () => Promise<void>;

async function cursor(): Promise<bigint> {
  const [row] = await database().sql.query<{ last_id: string }>(
    `SELECT last_id::text FROM event_cursors WHERE name = 'webhooks'`,
  );
  return BigInt(row?.last_id ?? -1);
}

async function head(): Promise<bigint> {
  const [row] = await database().sql.query<{ id: string | null }>(`SELECT max(id)::text AS id FROM events`);
  return BigInt(row?.id ?? 0);
}

/** Emits one event and waits long enough for a pass it woke (a 10 ms window, then one statement) to have run. */
async function emitAndSettle(name: 'job.posted' | 'skill.published'): Promise<bigint> {
  await withTransaction((tx) => emit(name, { at: Date.now() }, tx.sql));
  const id = await head();
  await sleep(600);
  return id;
}

/**
 * Emits `name` until one event wakes no pass (the cursor stays), at most 10 times: the worker reads the subscribed
 * names again after a change, and until that read is back an event wakes a pass. True when one stayed.
 */
async function eventuallyWakesNoPass(name: 'job.posted' | 'skill.published'): Promise<boolean> {
  for (let i = 0; i < 10; i++) {
    const before = await cursor();
    const id = await emitAndSettle(name);
    expect(id).toBeGreaterThan(before);
    if ((await cursor()) === before) return true;
  }
  return false;
}

async function deliveriesOf(eventId: bigint): Promise<number> {
  const [row] = await database().sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1::bigint`,
    [eventId.toString()],
  );
  return row!.n;
}

beforeAll(async () => {
  app = await startTestApp();
  stop = startWebhookWorker(app.runtime, TIMED_PASS_MS);
  // The start's own pass sets the cursor; the first event (its names not read yet) wakes a pass and the read.
  await sleep(300);
  await emitAndSettle('skill.published');
});

afterAll(async () => {
  await stop?.();
  await app?.close();
});

describe('the webhook worker wakes only for events some webhook wants', () => {
  it('an event no active webhook subscribes to wakes no pass', async () => {
    expect(await eventuallyWakesNoPass('job.posted')).toBe(true);
  });

  it('a webhook created for that event is heeded by the next one, which is fanned out at once', async () => {
    const [webhook] = await database().sql.query<{ id: string }>(
      `INSERT INTO webhooks (id, owner_wallet, url, events) VALUES (gen_random_uuid(), $1, 'http://127.0.0.1:9/hook', ARRAY['job.posted'])
       RETURNING id`,
      [OWNER],
    );
    // Its change notice drops the names: the next event is fanned out, whether or not they were read again by then.
    const id = await emitAndSettle('job.posted');
    expect(await cursor()).toBeGreaterThanOrEqual(id);
    expect(await deliveriesOf(id)).toBe(1);

    // Another name still wakes nothing.
    expect(await eventuallyWakesNoPass('skill.published')).toBe(true);

    // Paused: its name is no longer wanted.
    await database().sql.query(`UPDATE webhooks SET is_active = false WHERE id = $1::uuid`, [webhook!.id]);
    expect(await eventuallyWakesNoPass('job.posted')).toBe(true);

    // Resumed with another event list.
    await database().sql.query(`UPDATE webhooks SET is_active = true, events = ARRAY['skill.published'] WHERE id = $1::uuid`, [
      webhook!.id,
    ]);
    const resumed = await emitAndSettle('skill.published');
    expect(await cursor()).toBeGreaterThanOrEqual(resumed);
    expect(await deliveriesOf(resumed)).toBe(1);
  });

  it('a redelivery is sent at once, not at the next timed pass', async () => {
    // A finished delivery made due again, as POST .../redeliver does (restartDelivery), then its wake-up.
    const [delivery] = await database().sql.query<{ id: string; attempts: number }>(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), claimed_until = NULL
       WHERE id = (SELECT id FROM webhook_deliveries ORDER BY event_id LIMIT 1) RETURNING id, attempts`,
    );
    await database().sql.query(`UPDATE webhooks SET is_active = true, failed_attempts = 0, paused_until = NULL`);
    wakeDeliveries();
    const attempts = async () =>
      (
        await database().sql.query<{ attempts: number }>(`SELECT attempts FROM webhook_deliveries WHERE id = $1::uuid`, [
          delivery!.id,
        ])
      )[0]!.attempts;
    const deadline = Date.now() + 3_000;
    while ((await attempts()) === 0 && Date.now() < deadline) await sleep(100);
    expect(await attempts()).toBeGreaterThan(0);
  });
});

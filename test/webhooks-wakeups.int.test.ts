import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, withTransaction } from '../server/core/db';
import { emit } from '../server/events/emit';
import { startWebhookWorker } from '../server/webhooks/deliver-webhooks';
import { startTestApp, type TestApp } from './harness';

// The webhook worker's passes woken by events (deliver-webhooks.ts, SubscribedNames): an event no active webhook
// subscribes to wakes no pass (its fan-out would make nothing); a webhook created, paused or re-subscribed is
// heeded by the next event, through the `webhook` change notice, long before the timed pass. The timed pass runs
// once a minute here, so the cursor moving within a second can only be a pass the event woke.

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
    const before = await cursor();
    const id = await emitAndSettle('job.posted');
    expect(id).toBeGreaterThan(before);
    expect(await cursor()).toBe(before);
  });

  it('a webhook created for that event is heeded by the next one, which is fanned out at once', async () => {
    const [webhook] = await database().sql.query<{ id: string }>(
      `INSERT INTO webhooks (id, owner_wallet, url, events) VALUES (gen_random_uuid(), $1, 'http://127.0.0.1:9/hook', ARRAY['job.posted'])
       RETURNING id`,
      [OWNER],
    );
    await sleep(100); // its change notice
    const id = await emitAndSettle('job.posted');
    expect(await cursor()).toBeGreaterThanOrEqual(id);
    expect(await deliveriesOf(id)).toBe(1);

    // Another name still wakes nothing.
    const before = await cursor();
    await emitAndSettle('skill.published');
    expect(await cursor()).toBe(before);

    // Paused: its name is no longer wanted.
    await database().sql.query(`UPDATE webhooks SET is_active = false WHERE id = $1::uuid`, [webhook!.id]);
    await sleep(100);
    const paused = await cursor();
    await emitAndSettle('job.posted');
    expect(await cursor()).toBe(paused);

    // Resumed with another event list.
    await database().sql.query(`UPDATE webhooks SET is_active = true, events = ARRAY['skill.published'] WHERE id = $1::uuid`, [
      webhook!.id,
    ]);
    await sleep(100);
    const resumed = await emitAndSettle('skill.published');
    expect(await cursor()).toBeGreaterThanOrEqual(resumed);
    expect(await deliveriesOf(resumed)).toBe(1);
  });
});

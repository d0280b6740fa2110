import { EventSource } from 'eventsource';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction, database } from '../server/core/db';
import { emit } from '../server/events/emit';
import { GET as nextDoor } from '../app/api/[...path]/route';
import { openStreamCount } from '../server/stream/open-stream';
import { parsePostgresUrl } from '../server/core/db/open';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// GET /api/v1/stream over a real HTTP server with the `eventsource` client. Run on PGlite by
// default and on PostgreSQL with DATABASE_URL (the gapless test matters most there).

let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await startTestApp({ STREAM_HEARTBEAT_MS: '300', STREAM_MAX_AGE_MS: '6000', STREAM_MAX_PER_CALLER: '3' });
  base = await app.listen();
});
afterAll(async () => {
  await app.close();
});

interface Received {
  id: string;
  event: string;
  data: any;
}

/** An EventSource with the bearer token in the header (or the query) and an optional Last-Event-ID. */
function open(token: string, query = '', lastEventId?: string, viaQuery = false) {
  const url = `${base}/api/v1/stream?${viaQuery ? `token=${encodeURIComponent(token)}&` : ''}${query}`;
  return new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string>),
          ...(viaQuery ? {} : { authorization: `Bearer ${token}` }),
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
      }),
  });
}

/** Resolves once the stream is open (the server subscribed it before answering). */
const opened = (source: EventSource) =>
  new Promise<void>((resolve, reject) => {
    source.addEventListener('open', () => resolve(), { once: true });
    source.addEventListener('error', () => reject(new Error('stream failed to open')), { once: true });
  });

/** Collects events of the given names until `until` holds or the time runs out. */
function collect(source: EventSource, names: string[], until: (got: Received[]) => boolean, timeoutMs = 10_000) {
  return new Promise<Received[]>((resolve, reject) => {
    const got: Received[] = [];
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`timed out with ${got.length} events: ${JSON.stringify(got.slice(-3))}`));
    }, timeoutMs);
    for (const name of names) {
      source.addEventListener(name, (message) => {
        got.push({ id: message.lastEventId, event: name, data: JSON.parse(message.data) });
        if (until(got)) {
          clearTimeout(timer);
          source.close();
          resolve(got);
        }
      });
    }
  });
}

async function viewer() {
  const account = newWallet();
  const session = await signIn(app, account);
  await app.post('/api/v1/agents', { agent_name: 'Viewer' }, { token: session.token });
  return { account, token: session.token, wallet: account.address.toLowerCase() };
}

const emitNow = (name: Parameters<typeof emit>[0], data: Record<string, unknown>, audience?: string[]) =>
  withTransaction((tx) => emit(name, data, tx.sql, audience ? { audience } : {}));

describe('GET /api/v1/stream', () => {
  it('refuses a missing or bad token, unknown event names, a malformed Last-Event-ID', async () => {
    expect((await app.get('/api/v1/stream')).status).toBe(401);
    expect((await app.get('/api/v1/stream?token=nope')).status).toBe(401);
    // not a possible header value (the fuzz found a 500 here)
    expect((await app.get('/api/v1/stream?token=%F0%9D%95%8F%F0%9F%A6%80')).status).toBe(401);
    const me = await viewer();
    const unknown = await app.get('/api/v1/stream?events=agent.registered,nope.nothing', { token: me.token });
    expect(unknown.status).toBe(400);
    expect((await app.get('/api/v1/stream', { token: me.token, headers: { 'last-event-id': 'evt_x' } })).status).toBe(400);
    // 19 digits past the largest log position (bigint) are refused, not sent to the database
    const tooLarge = '9999999999999999999';
    expect((await app.get('/api/v1/stream', { token: me.token, headers: { 'last-event-id': tooLarge } })).status).toBe(400);
    expect((await app.get(`/api/v1/stream?last_event_id=${tooLarge}`, { token: me.token })).status).toBe(400);
  });

  it('sends id, retry and heartbeats, with the token in the header or the query; filters by name', async () => {
    const me = await viewer();
    const response = await fetch(`${base}/api/v1/stream?events=job.posted`, { headers: { authorization: `Bearer ${me.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let text = '';
    const deadline = Date.now() + 5000;
    await emitNow('job.bid', { job_id: 'j0' });
    await emitNow('job.posted', { job_id: 'j1' });
    while (Date.now() < deadline && !(text.includes('"j1"') && text.includes('event: heartbeat'))) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(text).toMatch(/^retry: \d+/);
    expect(text).toMatch(
      /id: \d+\nevent: job\.posted\ndata: \{"id":"evt_\d+","event":"job\.posted","timestamp":"[^"]+","data":\{"job_id":"j1"\}\}/,
    );
    expect(text).toContain('event: heartbeat');
    expect(text).not.toContain('"j0"');

    const viaQuery = open(me.token, 'events=job.completed', undefined, true);
    const ready = opened(viaQuery);
    const got = collect(viaQuery, ['job.completed'], (list) => list.length === 1);
    await ready;
    await emitNow('job.completed', { job_id: 'j2' });
    expect((await got)[0]!.data).toMatchObject({ event: 'job.completed', data: { job_id: 'j2' } });
  });

  it('clamps a since older than 24 h to 24 h ago (the spec: replays up to 24 h back) instead of refusing it', async () => {
    const me = await viewer();
    const marker = `old${Date.now()}`;
    await emitNow('skill.published', { marker });
    const old = new Date(Date.now() - 48 * 3600_000).toISOString();
    const got = await collect(open(me.token, `events=skill.published&since=${old}`), ['skill.published'], (list) =>
      list.some((e) => e.data.data.marker === marker),
    );
    expect(got.filter((e) => e.data.data.marker === marker)).toHaveLength(1);
  });

  it('resumes a Last-Event-ID older than 24 h from 24 h back, as since does, not from the start of the log', async () => {
    const me = await viewer();
    const marker = `stale${Date.now()}`;
    await emitNow('skill.published', { marker, n: 0 });
    const [stale] = await database().sql.query<{ id: string }>(`SELECT id::text AS id FROM events WHERE data->>'marker' = $1`, [
      marker,
    ]);
    // The log up to that event is more than a day old; the next event is new.
    await database().sql.query(`UPDATE events SET created_at = now() - interval '25 hours' WHERE id <= $1`, [stale!.id]);
    await emitNow('skill.published', { marker, n: 1 });
    const got = await collect(
      open(me.token, 'events=skill.published', String(BigInt(stale!.id) - 1n)),
      ['skill.published'],
      (list) => list.some((e) => e.data.data.marker === marker && e.data.data.n === 1),
    );
    expect(got.filter((e) => e.data.data.marker === marker).map((e) => e.data.data.n)).toEqual([1]);
    // A position inside the day resumes right after it, as before.
    const recent = await collect(open(me.token, 'events=skill.published', stale!.id), ['skill.published'], (list) =>
      list.some((e) => e.data.data.marker === marker && e.data.data.n === 1),
    );
    expect(recent.filter((e) => e.data.data.marker === marker).map((e) => e.data.data.n)).toEqual([1]);
  });

  it('replays with since an event committed before one that started earlier (ids in commit order)', async () => {
    const me = await viewer();
    const marker = `order${Date.now()}`;
    for (let n = 0; n < 3; n++) await emitNow('skill.published', { marker, n });
    const ids = await database().sql.query<{ id: string }>(
      `SELECT id::text AS id FROM events WHERE data->>'marker' = $1 ORDER BY id`,
      [marker],
    );
    // n=0 is older than `since` (it may come along: a replay starts at a position in commit order); n=1 committed
    // before n=2 but its transaction started 30 s after n=2's, which starts exactly at `since`: the cursor must be
    // before n=1 (the lowest id since), not before n=2 (the first created since).
    const since = new Date(Date.now() - 10 * 60_000);
    const at = (ms: number) => new Date(since.getTime() + ms).toISOString();
    await database().sql.query(`UPDATE events SET created_at = $2 WHERE id = $1`, [ids[0]!.id, at(-60_000)]);
    await database().sql.query(`UPDATE events SET created_at = $2 WHERE id = $1`, [ids[1]!.id, at(30_000)]);
    await database().sql.query(`UPDATE events SET created_at = $2 WHERE id = $1`, [ids[2]!.id, at(0)]);
    const got = await collect(
      open(me.token, `events=skill.published&since=${since.toISOString()}`),
      ['skill.published'],
      (list) => list.some((e) => e.data.data.marker === marker && e.data.data.n === 2),
    );
    const replayed = got.filter((e) => e.data.data.marker === marker && e.data.data.n > 0);
    expect(replayed.map((e) => e.data.data.n)).toEqual([1, 2]);
  });

  it('replays with since and resumes after Last-Event-ID with no duplicate', async () => {
    const me = await viewer();
    const marker = `m${Date.now()}`;
    for (let i = 0; i < 5; i++) await emitNow('skill.published', { marker, n: i });
    const since = new Date(Date.now() - 60_000).toISOString();
    const all = await collect(open(me.token, `events=skill.published&since=${since}`), ['skill.published'], (list) =>
      list.some((e) => e.data.data.marker === marker && e.data.data.n === 4),
    );
    const mine = all.filter((e) => e.data.data.marker === marker);
    expect(mine.map((e) => e.data.data.n)).toEqual([0, 1, 2, 3, 4]);
    const resumed = await collect(open(me.token, 'events=skill.published', mine[1]!.id), ['skill.published'], (list) =>
      list.some((e) => e.data.data.marker === marker && e.data.data.n === 4),
    );
    expect(resumed.filter((e) => e.data.data.marker === marker).map((e) => e.data.data.n)).toEqual([2, 3, 4]);
    expect(resumed.every((e) => `evt_${e.id}` === e.data.id)).toBe(true);
  });

  it('shows private events only to their audience and tier-gated events only from the entry tier', async () => {
    const alice = await viewer();
    const bob = await viewer();
    const rich = await viewer();
    await database().sql.query(`UPDATE agents SET tier = 'entry' WHERE lower(owner_wallet) = $1`, [rich.wallet]);
    const names = ['agent.invoked', 'smart_money.alert', 'job.posted'];
    const done = (list: Received[]) => list.some((e) => e.event === 'job.posted' && e.data.data.marker === 'end');
    const sources = [alice, bob, rich].map((who) => open(who.token, `events=${names.join(',')}`));
    const ready = Promise.all(sources.map(opened));
    const streams = sources.map((source) => collect(source, names, done));
    await ready;
    await emitNow('agent.invoked', { invocation_id: 'i1' }, [alice.account.address]);
    await emitNow('smart_money.alert', { id: 'a1' });
    await emitNow('job.posted', { marker: 'end' });
    const [forAlice, forBob, forRich] = await Promise.all(streams);
    expect(forAlice!.map((e) => e.event)).toEqual(['agent.invoked', 'job.posted']);
    expect(forBob!.map((e) => e.event)).toEqual(['job.posted']);
    expect(forRich!.map((e) => e.event)).toEqual(['smart_money.alert', 'job.posted']);
  });

  it('streams through the Next.js door (app/api/[...path]/route.ts) too', async () => {
    const me = await viewer();
    const controller = new AbortController();
    const response = await nextDoor(
      new Request('http://vouchsafe.test/api/v1/stream?events=job.posted', {
        headers: { authorization: `Bearer ${me.token}` },
        signal: controller.signal,
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    await emitNow('job.posted', { job_id: 'door' });
    let text = '';
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && !text.includes('"door"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/id: \d+\nevent: job\.posted\n/);
    await reader.cancel();
    controller.abort();
  });

  it('revoking the token or API key of an open stream ends it with reconnect (credential_revoked), whoever revoked it', async () => {
    /** Reads a stream to its end; fails if the server has not ended it within `ms`. */
    const readToEnd = async (response: Response, ms: number) => {
      const reader = response.body!.getReader();
      const timer = setTimeout(() => void reader.cancel(), ms);
      let text = '';
      let ended = false;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
        ended = text.includes('event: reconnect');
      }
      clearTimeout(timer);
      return { text, ended };
    };
    const me = await viewer();
    const other = await signIn(app, me.account);
    const minted = await app.post('/api/mint-api-key', { label: 'stream reader' }, { token: me.token });
    expect(minted.status).toBe(201);
    const byToken = await fetch(`${base}/api/v1/stream`, { headers: { authorization: `Bearer ${other.token}` } });
    const byQuery = await fetch(`${base}/api/v1/stream?token=${other.token}`);
    const byKey = await fetch(`${base}/api/v1/stream`, { headers: { 'x-api-key': minted.body.api_key } });
    expect([byToken.status, byQuery.status, byKey.status]).toEqual([200, 200, 200]);

    // The token revokes itself through the API: both of its streams end within a few seconds.
    const tokenEnds = [readToEnd(byToken, 5000), readToEnd(byQuery, 5000)];
    expect((await app.post('/api/v1/auth/revoke', undefined, { token: other.token })).status).toBe(200);
    for (const { text, ended } of await Promise.all(tokenEnds)) {
      expect(ended).toBe(true);
      expect(text).toMatch(/event: reconnect\ndata: \{"reason":"credential_revoked"/);
    }
    // Their slots (3 per caller here) are free again.
    const kept = await fetch(`${base}/api/v1/stream`, { headers: { authorization: `Bearer ${me.token}` } });
    expect(kept.status).toBe(200);
    // The key is revoked by another instance: only the database's change notice reaches this one.
    const keyEnds = readToEnd(byKey, 5000);
    if (process.env.DATABASE_URL && app.database.kind === 'postgres') {
      const client = new pg.Client({ connectionString: parsePostgresUrl(process.env.DATABASE_URL).connectionString });
      await client.connect();
      await client.query(`SET search_path TO "${app.database.schema}"`);
      await client.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [minted.body.key_id]);
      await client.end();
    } else {
      await app.database.sql.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [minted.body.key_id]);
    }
    const key = await keyEnds;
    expect(key.ended).toBe(true);
    expect(key.text).toMatch(/event: reconnect\ndata: \{"reason":"credential_revoked"/);
    // Reconnecting with a revoked credential is 401; the stream of a credential still valid goes on.
    expect((await fetch(`${base}/api/v1/stream`, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(401);
    expect(openStreamCount(me.wallet)).toBe(1);
    await kept.body!.cancel();
  }, 40_000);

  it('limits open streams per caller (429) and ends a stream with reconnect at its maximum age', async () => {
    const me = await viewer();
    const opened = await Promise.all(
      [1, 2, 3].map(() => fetch(`${base}/api/v1/stream`, { headers: { authorization: `Bearer ${me.token}` } })),
    );
    expect(opened.map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = await fetch(`${base}/api/v1/stream`, { headers: { authorization: `Bearer ${me.token}` } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    await refused.text();
    await Promise.all(opened.slice(1).map((r) => r.body!.cancel()));
    // The first one runs to its maximum age (6 s here) and says so.
    const reader = opened[0]!.body!.getReader();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toMatch(/event: reconnect\ndata: \{"reason":"max_age"/);
  }, 20_000);

  it('gapless resume: 8 concurrent writers x 500 events, a reader resuming at random points gets each id once, in order', async () => {
    const me = await viewer();
    const marker = `g${Date.now()}`;
    const writers = Array.from({ length: 8 }, (_, writer) =>
      (async () => {
        for (let n = 0; n < 500; n++) {
          await withTransaction(async (tx) => {
            await emit('job.bid', { marker, writer, n }, tx.sql);
            // Commit at a random moment, so commits overtake each other (PostgreSQL).
            if (database().kind === 'postgres' && Math.random() < 0.3)
              await tx.sql.query('SELECT 1 AS slept FROM pg_sleep(random() * 0.003)');
          });
        }
      })(),
    );
    const received: string[] = [];
    let last: string | undefined;
    let writing = true;
    let failure: unknown = null;
    // Once the writers are done, the log's head: a reader that got there has read everything, so a
    // skipped event shows as a missing id below instead of a wait.
    let finalHead: bigint | null = null;
    const finished = Promise.all(writers)
      .catch((error) => void (failure = error))
      .then(async () => {
        const [row] = await database().sql.query<{ id: string }>(`SELECT max(id)::text AS id FROM events WHERE name = 'job.bid'`);
        finalHead = BigInt(row!.id);
      })
      .finally(() => (writing = false));
    const caughtUp = (id: string | undefined) => finalHead !== null && id !== undefined && BigInt(id) >= finalHead;
    // The reader starts now (everything after the current head), disconnects after a random
    // number of events and resumes from the last id it saw, until every event arrived.
    const startAfter = (await database().sql.query<{ id: string }>('SELECT COALESCE(max(id), 0)::text AS id FROM events'))[0]!.id;
    last = startAfter;
    let sessions = 0;
    const total = 8 * 500;
    while (received.length < total && !caughtUp(last)) {
      if (failure) throw failure;
      sessions++;
      const take = 1 + Math.floor(Math.random() * 700);
      const before = received.length;
      const batch = await collect(
        open(me.token, 'events=job.bid', last),
        ['job.bid', 'reconnect'],
        (list) =>
          list.length >= take ||
          before + list.filter((e) => e.event === 'job.bid').length >= total ||
          list.at(-1)?.event === 'reconnect',
        60_000,
      );
      for (const event of batch) {
        if (event.event !== 'job.bid') continue;
        expect(event.data.data.marker).toBe(marker);
        received.push(event.id);
        last = event.id;
      }
      if (sessions > 500) throw new Error('too many sessions');
    }
    await finished;
    expect(writing).toBe(false);
    expect(new Set(received).size).toBe(received.length);
    expect(received).toHaveLength(total);
    const ids = received.map(BigInt);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    const logged = await database().sql.query<{ id: string }>(
      `SELECT id::text AS id FROM events e WHERE name = 'job.bid' AND data->>'marker' = $1 ORDER BY e.id`,
      [marker],
    );
    expect(logged.map((row) => row.id)).toEqual(received);
    expect(sessions).toBeGreaterThan(3);
  }, 180_000);
});

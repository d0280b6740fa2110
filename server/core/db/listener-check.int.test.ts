import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, parsePostgresUrl, type Database } from './open';

// The one listening connection of an instance (open.ts, persistentListener) notices a connection that stopped
// answering without closing (a half-open socket): it reconnects, reports the notices it may have missed (every
// cache is dropped), and hears other sessions' changes again. PostgreSQL only (PGlite has no connection to lose).
// Also: the own-change NOTICEs reach the pool under a role that defaults to client_min_messages above NOTICE.

const url = process.env.DATABASE_URL;
const direct = url ? parsePostgresUrl(url).connectionString : '';

/** One statement on a connection of its own, outside the service's pool (setup and cleanup). */
async function admin(statement: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: direct });
  await client.connect();
  try {
    await client.query(statement, params);
  } finally {
    await client.end();
  }
}

/** A TCP proxy to PostgreSQL whose open connections can be frozen: bytes stop flowing both ways, nothing closes. */
function freezableProxy(target: { host: string; port: number }) {
  const pairs: [net.Socket, net.Socket][] = [];
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target.port, target.host);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', close);
    outbound.on('error', close);
    pairs.push([inbound, outbound]);
  });
  return {
    listen: () =>
      new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))),
    freeze() {
      for (const [inbound, outbound] of pairs.splice(0)) {
        inbound.unpipe(outbound);
        outbound.unpipe(inbound);
        inbound.pause();
        outbound.pause();
      }
    },
    close() {
      for (const [inbound, outbound] of pairs.splice(0)) {
        inbound.destroy();
        outbound.destroy();
      }
      server.close();
    },
  };
}

describe.runIf(url)('the listening connection', () => {
  const schema = `listener_${process.pid}_${Date.now()}`;
  let proxy: ReturnType<typeof freezableProxy>;
  let database: Database;

  beforeAll(async () => {
    const target = new URL(direct);
    proxy = freezableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const port = await proxy.listen();
    const viaProxy = new URL(direct);
    viaProxy.port = String(port);
    viaProxy.searchParams.set('schema', schema);
    database = await openDatabase({ DATABASE_URL: viaProxy.toString(), DATA_DIR: '' });
  }, 60_000);

  afterAll(async () => {
    proxy.close();
    await database?.close().catch(() => {});
    await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  it('reconnects when its connection stops answering, reports the loss, and hears changes again', async () => {
    const heard: (string | null)[] = [];
    database.onNotice((payload) => heard.push(payload));
    proxy.freeze();
    // Within two checks (LISTENER_CHECK_MS): a lost connection, replaced.
    await expect.poll(() => heard.includes(null), { timeout: 20_000, interval: 200 }).toBe(true);
    await admin(`SELECT pg_notify($1, '{"kind":"agent","id":"after"}')`, [`vs_${schema}`]);
    await expect.poll(() => heard.some((payload) => payload?.includes('"after"')), { timeout: 5_000 }).toBe(true);
  }, 40_000);
});

// A role whose sessions default to client_min_messages above NOTICE (set by an operator) still gets its own
// change notices: the pool's connection options set it back.
describe.runIf(url)('own change notices under a quiet role', () => {
  const role = `vs_quiet_${process.pid}`;
  const schema = `quiet_${process.pid}_${Date.now()}`;
  let database: Database;

  beforeAll(async () => {
    await admin(`DROP ROLE IF EXISTS ${role}`);
    await admin(`CREATE ROLE ${role} LOGIN SUPERUSER`);
    await admin(`ALTER ROLE ${role} SET client_min_messages = warning`);
    const asRole = new URL(direct);
    asRole.username = role;
    asRole.searchParams.set('schema', schema);
    database = await openDatabase({ DATABASE_URL: asRole.toString(), DATA_DIR: '' });
  }, 60_000);

  afterAll(async () => {
    await database?.close().catch(() => {});
    await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin(`DROP ROLE IF EXISTS ${role}`);
  });

  it('arrive before the writing statement returns', async () => {
    const heard: (string | null)[] = [];
    database.onNotice((payload) => heard.push(payload));
    const [level] = await database.sql.query<{ level: string }>(`SELECT current_setting('client_min_messages') AS level`);
    expect(level!.level).toBe('notice');
    await database.sql.query(
      `INSERT INTO agents (id, owner_wallet, agent_pubkey, name, handle, updated_at) VALUES (gen_random_uuid(), '0xquiet', 'pk', 'Quiet', 'quiet-one', now())`,
    );
    expect(heard.some((payload) => payload?.includes('"agent"'))).toBe(true);
  });
});

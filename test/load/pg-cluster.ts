// Throwaway PostgreSQL servers for the replica and restart tests: a primary made with initdb and a
// streaming standby made with pg_basebackup -R, or one server that can be restarted, each in a
// temporary directory on a free port. The shared
// PostgreSQL of the machine is never reconfigured (its pg_hba.conf allows no replication).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../e2e/server-process';

/** The directory holding initdb, pg_basebackup and postgres, or a reason why there is none. */
export function findServerBinaries(): { bin: string } | { missing: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (['initdb', 'pg_basebackup', 'postgres'].every((name) => existsSync(path.join(bin, name)))) return { bin };
  }
  return { missing: `no initdb, pg_basebackup and postgres under ${root}/*/bin` };
}

/** postgres refuses to run as root: as root, run the servers as the `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0) throw new Error('running as root and there is no postgres user to run PostgreSQL as');
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export interface PgServer {
  port: number;
  dir: string;
  child: ChildProcess;
  url(database?: string): string;
  stop(): Promise<void>;
}

export interface PgPair {
  root: string;
  primary: PgServer;
  replica: PgServer;
  /** Stops both servers and removes the directory. */
  destroy(): Promise<void>;
}

function run(bin: string, name: string, args: string[], user: ReturnType<typeof runAs>): void {
  const result = spawnSync(path.join(bin, name), args, { encoding: 'utf8', timeout: 120_000, ...user });
  if (result.status !== 0) throw new Error(`${name} failed (${result.status}): ${result.stderr}`);
}

async function startPostgres(bin: string, dir: string, user: ReturnType<typeof runAs>, port?: number): Promise<PgServer> {
  port ??= await freePort();
  let log = '';
  const child = spawn(
    path.join(bin, 'postgres'),
    ['-D', dir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    { stdio: ['ignore', 'pipe', 'pipe'], ...user },
  );
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited ${child.exitCode}: ${log}`);
    const client = new pg.Client({ connectionString: url() });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`postgres did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    dir,
    child,
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // Fast shutdown: ends the sessions, then exits.
        child.kill('SIGINT');
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(force);
      }
    },
  };
}

/** A primary (initdb) and its streaming standby (pg_basebackup -R), both running. */
export async function startPrimaryAndReplica(bin: string): Promise<PgPair> {
  const user = runAs();
  const root = mkdtempSync(path.join(tmpdir(), 'vouchsafe-replica-'));
  if (user) chownSync(root, user.uid, user.gid);
  const servers: PgServer[] = [];
  const destroy = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const primaryDir = path.join(root, 'primary');
    // trust on loopback, replication included (initdb's pg_hba.conf has `host replication all 127.0.0.1/32`).
    run(bin, 'initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync'], user);
    const primary = await startPostgres(bin, primaryDir, user);
    servers.push(primary);
    const replicaDir = path.join(root, 'replica');
    run(
      bin,
      'pg_basebackup',
      ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '--no-sync'],
      user,
    );
    const replica = await startPostgres(bin, replicaDir, user);
    servers.push(replica);
    return { root, primary, replica, destroy };
  } catch (error) {
    await destroy();
    throw error;
  }
}

/** Runs one statement on a server and returns its rows. */
export async function sqlOn<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface PgRestartable {
  root: string;
  server: PgServer;
  /** Fast shutdown, `downMs` with nothing listening, then the same server again on the same port. */
  restart(downMs: number): Promise<void>;
  /** Stops the server and removes the directory. */
  destroy(): Promise<void>;
}

/** One throwaway server (initdb) that a test may restart. */
export async function startRestartable(bin: string): Promise<PgRestartable> {
  const user = runAs();
  const root = mkdtempSync(path.join(tmpdir(), 'vouchsafe-restart-'));
  if (user) chownSync(root, user.uid, user.gid);
  const dir = path.join(root, 'data');
  let server: PgServer | undefined;
  const destroy = async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    run(bin, 'initdb', ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync'], user);
    server = await startPostgres(bin, dir, user);
    const handle: PgRestartable = {
      root,
      server,
      async restart(downMs) {
        const port = server!.port;
        await server!.stop();
        await new Promise((resolve) => setTimeout(resolve, downMs));
        server = await startPostgres(bin, dir, user, port);
        handle.server = server;
      },
      destroy,
    };
    return handle;
  } catch (error) {
    await destroy();
    throw error;
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// Starts the anvil binary shipped in @foundry-rs/anvil on a free loopback port.

export interface AnvilOptions {
  chainId?: number;
  /** Load this state file when it exists and write the chain's state back to it (on exit and every few seconds). */
  stateFile?: string;
  /** Load this state file (read only). */
  loadState?: string;
  /** Port; 0 (default) picks a free one. */
  port?: number;
}

export interface Anvil {
  rpcUrl: string;
  process: ChildProcess;
  /** Stops anvil; with stateFile, waits until it has written its state. */
  stop(): Promise<void>;
}

const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };

/**
 * The anvil binary itself from its platform package (@foundry-rs/anvil-<os>-<arch>), so that stopping the
 * child stops anvil: the package's node_modules/.bin/anvil is a Node wrapper whose own child outlives it
 * when the wrapper is killed. Falls back to the wrapper, then to `anvil` on the PATH.
 */
export function anvilBinary(): string {
  const modules = path.resolve(process.cwd(), 'node_modules');
  const platform = path.join(modules, '@foundry-rs', `anvil-${process.platform}-${ARCH[process.arch] ?? process.arch}`, 'bin');
  for (const candidate of [
    path.join(platform, process.platform === 'win32' ? 'anvil.exe' : 'anvil'),
    path.join(modules, '.bin', 'anvil'),
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  return 'anvil';
}

/**
 * A parent-death watchdog (POSIX sh): anvil runs as the shell's child and the shell reads its stdin, a pipe
 * whose only writer is this process. When this process exits in any way, SIGKILL included, the pipe closes
 * and the shell ends anvil (SIGTERM, so a state file is written; SIGKILL 5 s later), so a killed server
 * never leaves its anvil behind and its restart starts a fresh one on the saved state. SIGTERM/SIGINT to the
 * shell (stop()) are passed on to anvil; the shell exits with anvil's status.
 */
const WATCHDOG = [
  'exec 3<&0',
  '"$@" </dev/null & a=$!',
  "trap 'kill -TERM $a 2>/dev/null' TERM INT",
  '( read -r _ <&3; kill -TERM $a 2>/dev/null; sleep 5; kill -KILL $a 2>/dev/null ) & w=$!',
  'exec 3<&-',
  's=0',
  'while kill -0 $a 2>/dev/null; do wait $a; s=$?; done',
  'kill $w 2>/dev/null',
  'exit $s',
].join('\n');

export function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const args = ['--host', '127.0.0.1', '--port', String(options.port ?? 0), '--chain-id', String(options.chainId ?? 8453)];
  if (options.stateFile) args.push('--state', options.stateFile, '--state-interval', '5');
  if (options.loadState) args.push('--load-state', options.loadState);
  // Windows has no sh: anvil runs directly there (the process.on('exit') kill below still covers clean exits).
  const child =
    process.platform === 'win32'
      ? spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', WATCHDOG, 'anvil-watchdog', anvilBinary(), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Closing the watchdog's stdin ends anvil at once, whatever happens to the shell.
  const hardKill = () => {
    child.stdin?.destroy();
    child.kill('SIGKILL');
  };
  return new Promise<Anvil>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`anvil did not start within 20 s: ${output.slice(-500)}`)), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      hardKill();
      reject(error);
    };
    child.once('error', (error) => fail(new Error(`anvil could not start (${anvilBinary()}): ${error.message}`)));
    child.once('exit', (code) => fail(new Error(`anvil exited with code ${code}: ${output.slice(-500)}`)));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on ([\d.]+):(\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout!.off('data', onData);
      // Keep draining the pipes so anvil never blocks on a full buffer.
      child.stdout!.resume();
      child.stderr!.resume();
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      // Never leave anvil running behind a process that exits without closing its runtime.
      const killOnExit = hardKill;
      process.once('exit', killOnExit);
      void exited.then(() => process.off('exit', killOnExit));
      resolve({
        rpcUrl: `http://${match[1]}:${match[2]}`,
        process: child,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(hardKill, 10_000);
          await exited;
          clearTimeout(killer);
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}

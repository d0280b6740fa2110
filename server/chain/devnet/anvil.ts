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

export function anvilBinary(): string {
  const local = path.resolve(process.cwd(), 'node_modules', '.bin', 'anvil');
  return existsSync(local) ? local : 'anvil';
}

export function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const args = ['--host', '127.0.0.1', '--port', String(options.port ?? 0), '--chain-id', String(options.chainId ?? 8453)];
  if (options.stateFile) args.push('--state', options.stateFile, '--state-interval', '5');
  if (options.loadState) args.push('--load-state', options.loadState);
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise<Anvil>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`anvil did not start within 20 s: ${output.slice(-500)}`)), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
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
      resolve({
        rpcUrl: `http://${match[1]}:${match[2]}`,
        process: child,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(killer);
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}

// The test side of the load servers (load/pipeline-server.ts, load/backpressure-server.ts): forks one
// with the PGlite template, or on PostgreSQL a fresh schema of its own (made, and dropped at close,
// by a test app here), waits for its first message and then talks to it over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';
import { startTestApp, type TestApp } from '../harness';
import { SERVER_ENV_DEFAULTS, SERVER_NODE_ARGS } from '../../scripts/server-env.mjs';

export interface ServerProcess<Ready> {
  child: ChildProcess;
  /** The first message the script sends, once it is ready. */
  ready: Ready;
  /** Sends a message and resolves with the answer (rejects when the answer carries `error`). */
  ask<T>(message: string): Promise<T>;
  close(): Promise<void>;
}

/** Forks `script` (a file in test/load) with argv `<template> ...args` and `env` added to this process's. */
export async function forkServer<Ready>(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ServerProcess<Ready>> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  let schemaApp: TestApp | null = null;
  let child: ChildProcess | null = null;
  const close = async () => {
    // The schema is dropped once the server holds no connection to it.
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill();
      await exited;
    }
    await schemaApp?.close();
  };
  try {
    if (process.env.DATABASE_URL) {
      schemaApp = await startTestApp();
      const url = new URL(process.env.DATABASE_URL);
      url.searchParams.set('schema', schemaApp.database.kind === 'postgres' ? schemaApp.database.schema : '');
      childEnv.DATABASE_URL = url.toString();
    }
    // as `npm start` runs server.ts (scripts/server-env.mjs): its memory is what these tests bound
    const started = fork(path.join(import.meta.dirname, script), [inject('pgliteTemplate'), ...args], {
      execArgv: SERVER_NODE_ARGS,
      env: { MALLOC_ARENA_MAX: SERVER_ENV_DEFAULTS.MALLOC_ARENA_MAX, ...childEnv },
      stdio: 'inherit',
    });
    child = started;
    const ready = await new Promise<Ready>((resolve, reject) => {
      started.once('message', (message) => resolve(message as Ready));
      started.once('exit', (code) => reject(new Error(`the server process exited (${code})`)));
    });
    const ask = <T>(message: string) =>
      new Promise<T>((resolve, reject) => {
        started.once('message', (answer: T & { error?: string }) =>
          answer.error ? reject(new Error(answer.error)) : resolve(answer),
        );
        started.send(message);
      });
    return { child: started, ready, ask, close };
  } catch (error) {
    await close();
    throw error;
  }
}

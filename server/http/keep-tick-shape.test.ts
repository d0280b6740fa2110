import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULE = path.resolve(import.meta.dirname, 'keep-tick-shape.ts');

/**
 * In a fresh Node process: queue ticks (so nextTick's literal records its maps), let every tick
 * finish, run two full garbage collections, queue ticks again, then print the feedback of nextTick's
 * property stores (V8's %DebugPrint; the Function constructor keeps the natives syntax away from tsx).
 */
async function feedbackAfterCollection(keep: boolean): Promise<string> {
  const script = `
    const nextTick = process.nextTick;
    ${keep ? `await import(${JSON.stringify(MODULE)});` : ''}
    const tick = () => new Promise((resolve) => process.nextTick(resolve));
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(() => tick().then(resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    globalThis.gc();
    globalThis.gc();
    await tick();
    await tick();
    new Function('f', '%DebugPrint(f)')(nextTick);
  `;
  // V8 prints with C stdio, which drops what a non-blocking pipe refuses: a file takes all of it.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tick-shape-'));
  const file = path.join(dir, 'out.txt');
  const out = openSync(file, 'w');
  try {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script],
      { stdio: ['ignore', out, 'inherit'] },
    );
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`the child process exited ${code}`);
    return readFileSync(file, 'utf8');
  } finally {
    closeSync(out);
    rmSync(dir, { recursive: true, force: true });
  }
}

const megamorphicStores = (printed: string) => printed.match(/DefineKeyedOwnPropertyInLiteral MEGAMORPHIC/g)?.length ?? 0;
const monomorphicStores = (printed: string) => printed.match(/DefineKeyedOwnPropertyInLiteral MONOMORPHIC/g)?.length ?? 0;

describe('keepTickShape', () => {
  it('keeps nextTick building its tick object inline after a full garbage collection', async () => {
    const [without, kept] = await Promise.all([feedbackAfterCollection(false), feedbackAfterCollection(true)]);
    // What the module is for: without it the collection drops the maps and the stores go megamorphic.
    expect(megamorphicStores(without)).toBeGreaterThan(0);
    expect(megamorphicStores(kept)).toBe(0);
    expect(monomorphicStores(kept)).toBe(4);
  }, 30_000);
});

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { personalizedPageRank, unpackGraph, type PackedGraph } from './page-rank';

// The worker's module is TypeScript, run as the server's own sources are (tsx): tsx's loader does not reach worker
// threads, so the worker starts from a line that imports the module through tsx's API (0.1-0.2 s, once a run).
// Bundled (Next's copy of this code, as under `next start`) there is no module resolution (its import.meta has no
// resolve) and no tsx to start the worker with: the ranking then runs on this thread, as before there was a worker.
let workerSource: string | null | undefined;

function findWorkerSource(): string | null {
  if (typeof import.meta.resolve !== 'function') return null;
  try {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page-rank-worker.ts');
    if (!existsSync(file)) return null;
    const tsx = import.meta.resolve('tsx/esm/api');
    return `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(import.meta.url)}))`;
  } catch {
    return null;
  }
}

/** A run that takes longer than this (it takes seconds at 100k agents) is ended and fails. */
const WORKER_TIMEOUT_MS = 5 * 60_000;

/**
 * Personalised PageRank of a packed graph in a worker thread of its own (one a run: a run is at most once a minute),
 * so that the event loop serves requests meanwhile. The graph's bytes are moved to the worker, not copied.
 */
export function pageRankOffThread(packed: PackedGraph): Promise<Float64Array> {
  workerSource ??= findWorkerSource();
  if (workerSource === null) return Promise.resolve(personalizedPageRank(unpackGraph(packed)));
  const source = workerSource;
  const graph = {
    n: packed.n,
    restart: owned(packed.restart),
    src: owned(packed.src),
    dst: owned(packed.dst),
    weight: owned(packed.weight),
  };
  // Once each: columns may share a buffer (a graph without edges has three empty ones), and a transfer list that
  // names a buffer twice fails the run.
  const transferList = [...new Set([graph.restart.buffer, graph.src.buffer, graph.dst.buffer, graph.weight.buffer])];
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: graph, transferList });
    let scores: Float64Array | null = null;
    let failure: Error | null = null;
    const timer = setTimeout(() => {
      failure = new Error(`page rank worker took longer than ${WORKER_TIMEOUT_MS} ms`);
      void worker.terminate();
    }, WORKER_TIMEOUT_MS);
    timer.unref();
    worker.once('message', (message: Float64Array) => (scores = message));
    worker.once('error', (error) => (failure ??= error));
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (scores) resolve(scores);
      else reject(failure ?? new Error(`page rank worker exited with code ${code}`));
    });
  });
}

/** Bytes that alone fill their ArrayBuffer (a small Buffer is a view of a shared pool, which must not be moved). */
function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    return bytes as Uint8Array<ArrayBuffer>;
  return new Uint8Array(bytes);
}

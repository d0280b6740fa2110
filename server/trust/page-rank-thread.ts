import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { personalizedPageRank, unpackGraph, type PackedGraph } from './page-rank';

// The worker's module is TypeScript, run as the server's own sources are (tsx): tsx's loader does not reach worker
// threads, so the worker starts from a line that imports the module through tsx's API (0.1-0.2 s, once a run). The
// paths are found at run time. Where the code runs from a bundle (Next's copy under `next start`) there is no source
// to start: the ranking runs on this thread, as it did before there was a worker.
let workerSource: string | null | undefined;

function findWorkerSource(): string | null {
  try {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page-rank-worker.ts');
    if (!existsSync(file)) return null;
    const tsx = import.meta.resolve('tsx/esm/api');
    return `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(import.meta.url)}))`;
  } catch {
    return null;
  }
}

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
  const transferList = [graph.restart.buffer, graph.src.buffer, graph.dst.buffer, graph.weight.buffer];
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: graph, transferList });
    let scores: Float64Array | null = null;
    worker.once('message', (message: Float64Array) => (scores = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (scores ? resolve(scores) : reject(new Error(`page rank worker exited with code ${code}`))));
  });
}

/** Bytes that alone fill their ArrayBuffer (a small Buffer is a view of a shared pool, which must not be moved). */
function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    return bytes as Uint8Array<ArrayBuffer>;
  return new Uint8Array(bytes);
}

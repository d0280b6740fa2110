// The worker thread of page-rank-thread.ts: unpacks one graph, ranks it, answers the scores and ends.
import { parentPort, workerData } from 'node:worker_threads';
import { personalizedPageRank, unpackGraph, type PackedGraph } from './page-rank';

const scores = personalizedPageRank(unpackGraph(workerData as PackedGraph));
parentPort!.postMessage(scores, [scores.buffer as ArrayBuffer]);

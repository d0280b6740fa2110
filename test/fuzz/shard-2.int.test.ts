import { defineFuzzShard } from './engine';

// One of the fuzz's shard files (engine.ts): its own database and seed, so the files run in parallel.
defineFuzzShard(2);

// The environment defaults `npm start` gives server.ts's process (scripts/start.mjs); the benchmarks start
// their servers with them too (bench/lib.ts), so they measure what `npm start` runs. A variable already set
// in the environment wins.
//
// MALLOC_ARENA_MAX=2: glibc's malloc otherwise opens up to eight arenas per core for node's threads and keeps
// what they freed, so the native memory behind large responses (Buffers of a graph's 75 KB answers at
// thousands a second) stayed in the process: the server's RSS after the scale bench's graph reads was
// 720 MB with the default and 420 MB with 2 (docs/benchmarks.md, Data volume). Applies on glibc (Linux); ignored elsewhere.
export const SERVER_ENV_DEFAULTS = { NODE_ENV: 'production', MALLOC_ARENA_MAX: '2' };

// The node arguments that run server.ts: TypeScript through tsx, without keeping source maps
// (scripts/source-maps-off.mjs says why).
export const SERVER_NODE_ARGS = ['--import', 'tsx', '--import', './scripts/source-maps-off.mjs'];

// Loaded after tsx by `npm start` and the benchmarks (SERVER_NODE_ARGS, scripts/server-env.mjs): tsx turns
// Node's source maps on, and Node then keeps the map of every module it loads, with the sources the maps
// carry (Next's chunks, zod's and viem's TypeScript): about 50 MB of heap and 85 MB of RSS at idle. Stack
// traces then point into the JavaScript tsx made of a TypeScript file (close to its lines) rather than the
// file itself; `node --import tsx server.ts` keeps them mapped when that is needed.
process.setSourceMapsEnabled(false);

import { createHook } from 'node:async_hooks';

// Imported first by server.ts. process.nextTick builds each queued tick as an object literal
// (`{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`); V8 (Node 20) remembers the
// maps of its property stores in the literal's feedback, and nothing holds those maps but weak
// references. A full garbage collection at a moment when no tick is queued (while server.ts starts:
// Next.js, the embedded database, the devnet) drops them; the next tick builds new maps and the
// stores' feedback turns megamorphic for the rest of the process: from then on every nextTick defines
// three properties through the runtime. Measured under `GET /api/v1/health` (bench/throughput.ts):
// about 10% of the serving process's CPU, 5-6 nextTicks a request. One tick object kept alive keeps
// its maps, so the feedback stays monomorphic and nextTick builds its object inline.
let kept: object | undefined;

/** Keeps one tick object (and with it the maps every later tick reuses) for the life of the process. */
export function keepTickShape(): object {
  if (kept) return kept;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  if (!kept) throw new Error('keepTickShape: process.nextTick queued no TickObject');
  return kept;
}

keepTickShape();

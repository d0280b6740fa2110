// Next.js runs register() once when its server starts. Under `next start` (or a serverless host) this
// is where the runtime and the scheduled work start; under `npm start`, server.ts has started both
// already and this finds them running (they live on globalThis, shared by both copies of the code).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { runtime } = await import('./server/core/runtime');
  const { ensureJobsStarted } = await import('./server/scheduler/jobs');
  ensureJobsStarted(await runtime());
}

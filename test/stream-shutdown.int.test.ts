// Shutdown (server.ts on SIGTERM calls closeAllStreams): every open event stream gets `reconnect` with its
// position and ends, and so does a stream opened afterwards (on a connection still open during the drain),
// once it has replayed what it asked for.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeAllStreams } from '../server/stream/open-stream';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await startTestApp();
  base = await app.listen();
});
afterAll(async () => {
  await app.close();
});

/** Reads a stream until the server ends it; fails the read after `ms`. */
async function readToEnd(response: Response, ms = 5000): Promise<string> {
  const reader = response.body!.getReader();
  const timer = setTimeout(() => void reader.cancel(), ms);
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  clearTimeout(timer);
  return text;
}

it('sends reconnect to open streams at shutdown, and to streams opened after it', { timeout: 120_000 }, async () => {
  const session = await signIn(app, newWallet());
  const headers = { authorization: `Bearer ${session.token}` };
  const before = await fetch(`${base}/api/v1/stream`, { headers });
  expect(before.status).toBe(200);
  const ending = readToEnd(before);
  await new Promise((resolve) => setTimeout(resolve, 100));
  closeAllStreams('shutdown');
  expect(await ending).toMatch(/event: reconnect\ndata: \{"reason":"shutdown"/);

  const after = await fetch(`${base}/api/v1/stream`, { headers });
  expect(after.status).toBe(200);
  expect(await readToEnd(after)).toMatch(/event: reconnect\ndata: \{"reason":"shutdown"/);
});

// The server side of bench/events.ts, in its own process so that its memory is measured alone:
// the fast door on PGlite, the webhook worker running, and IPC commands to emit events and report memory.
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApi, nodeListener } from '../server/api/app';
import { withTransaction } from '../server/core/db';
import { startRuntime } from '../server/core/runtime';
import { emit } from '../server/events/emit';
import { eventHub } from '../server/stream/hub';
import { startWebhookWorker } from '../server/webhooks/deliver-webhooks';

const runtime = await startRuntime({
  env: {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vouchsafe-bench-events-')),
    ALLOW_PRIVATE_URLS: 'true',
    SERVICE_NETWORK: 'testnet',
    LOG_LEVEL: 'silent',
    STREAM_MAX_PER_CALLER: '10000',
    RATE_LIMIT_AUTH: '100000/1m',
  },
});
const api = createApi();
const server = createServer(nodeListener(api));
server.maxConnections = 100_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;
let stopWorker: (() => void) | null = null;

type Command =
  | { id: number; kind: 'memory' }
  | { id: number; kind: 'emit'; name: string; count: number; batch: number }
  | { id: number; kind: 'webhooks' }
  | { id: number; kind: 'subscribers' }
  | { id: number; kind: 'stop-webhooks' }
  | { id: number; kind: 'exit' };

process.on('message', async (command: Command) => {
  const answer = (value: unknown) => process.send!({ id: command.id, value });
  if (command.kind === 'exit') {
    process.exit(0);
  } else if (command.kind === 'memory') {
    globalThis.gc?.();
    globalThis.gc?.();
    answer(process.memoryUsage());
  } else if (command.kind === 'subscribers') {
    answer(eventHub().size);
  } else if (command.kind === 'stop-webhooks') {
    stopWorker?.();
    stopWorker = null;
    answer(true);
  } else if (command.kind === 'webhooks') {
    stopWorker ??= startWebhookWorker(runtime, 200);
    answer(true);
  } else if (command.kind === 'emit') {
    for (let sent = 0; sent < command.count; sent += command.batch) {
      await withTransaction(async (tx) => {
        for (let i = 0; i < Math.min(command.batch, command.count - sent); i++) {
          await emit(command.name as never, { sent_at: Date.now(), n: sent + i }, tx.sql);
        }
      });
    }
    answer(true);
  }
});
process.send!({ id: 0, value: { port } });

// A write-and-read load for database fault tests (test/db-faults.int.test.ts, test/pg-restart.int.test.ts):
// writers post jobs (a ledger statement with its escrow hold and event), a reader lists jobs, over real
// HTTP, until told to stop. Every answer must be a success or 503 `service_unavailable` with
// Retry-After; anything else, or a request that does not answer within 10 s, is recorded as bad.
import { call, type Answer } from './http-client';

export interface FaultLoad {
  statuses: Map<number, number>;
  bad: string[];
  /** Ids of the jobs whose POST answered 201. */
  created: string[];
  /** Resolves when every loop has stopped (after stop(), or at the first request that hung). */
  done: Promise<void>;
  stop(): void;
  /** A request with the same 10 s bound (a hang is recorded as bad). */
  within<T>(what: string, promise: Promise<T>): Promise<T | null>;
}

/** Starts `writers` job-posting loops and one reader against `base` with the poster's `token`. */
export function startFaultLoad(base: string, token: string, writers = 2): FaultLoad {
  const statuses = new Map<number, number>();
  const bad: string[] = [];
  const created: string[] = [];
  let stopped = false;
  // A request that never answers is a failure too (a hung pool or transaction), not a slow test.
  const within = async <T>(what: string, promise: Promise<T>): Promise<T | null> => {
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      promise,
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 10_000))),
    ]);
    clearTimeout(timer);
    if (result === null) {
      bad.push(`${what} did not answer within 10 s`);
      stopped = true;
    }
    return result;
  };
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const unavailableRight = (response: Answer) =>
    Boolean(response.headers.get('retry-after')) && response.body?.code === 'service_unavailable';
  const writer = async () => {
    while (!stopped) {
      const job = { title: 'Fault job', description: 'Posted while the database fails', bounty_claw: 1 };
      const response = await within('POST /api/v1/jobs', call(base, 'POST', '/api/v1/jobs', job, token));
      if (!response) return;
      count(response.status);
      if (response.status === 201) created.push(response.body.job_id);
      else if (response.status !== 503) bad.push(`POST ${response.status} ${response.text.slice(0, 200)}`);
      else if (!unavailableRight(response)) bad.push(`503 ${response.text}`);
    }
  };
  const reader = async () => {
    while (!stopped) {
      const response = await within('GET /api/v1/jobs', call(base, 'GET', '/api/v1/jobs?limit=5'));
      if (!response) return;
      count(response.status);
      if (response.status !== 200 && response.status !== 503) bad.push(`GET ${response.status} ${response.text.slice(0, 200)}`);
      if (response.status === 503 && !unavailableRight(response)) bad.push(`503 ${response.text}`);
    }
  };
  const done = Promise.all([...Array.from({ length: writers }, writer), reader()]).then(() => undefined);
  return { statuses, bad, created, done, stop: () => (stopped = true), within };
}

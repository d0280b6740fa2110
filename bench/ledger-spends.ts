// Spends per second on one hot account, at the ledger itself: concurrent debits of one wallet
// through post() on a fresh embedded database, then the accounting checked to the micro-CLAW.
import { database } from '../server/core/db';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { holdAccount, walletAccount, WORLD_GRANTS } from '../server/credits/accounts';
import { balanceOf, InsufficientCreditsError, post, transfer } from '../server/credits/ledger';
import { startRuntime } from '../server/core/runtime';

export interface LedgerSpendResults {
  workers: number;
  seconds: number;
  successes: number;
  spendsPerSec: number;
  exact: boolean;
  overdraft: { attempts: number; successes: number; rejected: number; finalBalance: bigint; passed: boolean };
}

const WORKERS = 20;
const SECONDS = 5;

async function spend(wallet: string, n: number): Promise<boolean> {
  try {
    await post(
      {
        reason: 'bench_spend',
        postings: [
          { account: walletAccount(wallet), amount: -1n },
          { account: holdAccount('bench', String(n)), amount: 1n },
        ],
        spend: { wallet, amount: 1n, limit: null },
      },
      database().sql,
    );
    return true;
  } catch (error) {
    if (error instanceof InsufficientCreditsError) return false;
    throw error;
  }
}

export async function benchLedgerSpends(): Promise<LedgerSpendResults> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vouchsafe-bench-ledger-'));
  const runtime = await startRuntime({ env: { DATA_DIR: dir, LOG_LEVEL: 'silent' } });
  try {
    const hot = '0x' + '1'.repeat(40);
    const start = 1_000_000_000n;
    await transfer(WORLD_GRANTS, walletAccount(hot), start, { reason: 'bench_seed' }, database().sql);
    let counter = 0;
    let successes = 0;
    const deadline = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (performance.now() < deadline) if (await spend(hot, counter++)) successes++;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const exact = (await balanceOf(walletAccount(hot), database().sql)) === start - BigInt(successes);

    // Overdraft: the balance covers 100 spends; 1,000 are attempted at once from 20 workers.
    const small = '0x' + '2'.repeat(40);
    await transfer(WORLD_GRANTS, walletAccount(small), 100n, { reason: 'bench_seed' }, database().sql);
    let attempts = 0;
    let ok = 0;
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (attempts < 1000) {
          attempts++;
          if (await spend(small, counter++)) ok++;
        }
      }),
    );
    const finalBalance = await balanceOf(walletAccount(small), database().sql);
    return {
      workers: WORKERS,
      seconds,
      successes,
      spendsPerSec: successes / seconds,
      exact,
      overdraft: { attempts, successes: ok, rejected: attempts - ok, finalBalance, passed: ok === 100 && finalBalance === 0n },
    };
  } finally {
    await runtime.close();
    await rm(dir, { recursive: true, force: true });
  }
}

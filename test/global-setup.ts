import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPgliteInstance } from '../server/core/db/open';
import type { TestProject } from 'vitest/node';
import { deployMigrations } from '../server/core/db/migrations';
import { pgliteRunner } from '../server/core/db/sql-runner';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    runId: string;
  }
}

// One migrated PGlite database, dumped once; every test file starts from a copy of it.
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-test-'));
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  project.provide('runId', runId);
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', '');
  } else {
    const pglite = await createPgliteInstance();
    await deployMigrations(pgliteRunner(pglite));
    const dump = await pglite.dumpDataDir('none');
    const file = path.join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await pglite.close();
    project.provide('pgliteTemplate', file);
  }
  return async () => {
    rmSync(dir, { recursive: true, force: true });
  };
}

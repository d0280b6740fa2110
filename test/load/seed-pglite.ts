// A server's PGlite database made from the migrated template (test/global-setup.ts) instead of by
// initdb and every migration: used by the processes that open DATA_DIR as server.ts does
// (load/api-server.ts, chaos/chaos.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPgliteInstance } from '../../server/core/db/open';

/** Makes DATA_DIR's PGlite database (DATA_DIR/pglite) a copy of the template dump. */
export async function seedPgliteDataDir(template: string, dataDir: string): Promise<void> {
  const pglite = await createPgliteInstance({
    dataDir: path.join(dataDir, 'pglite'),
    loadDataDir: new Blob([readFileSync(template)]),
  });
  await pglite.close();
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { deployMigrations, listMigrations } from './migrations';
import { createPgliteInstance, parsePostgresUrl } from './open';
import { pgliteRunner, poolRunner } from './sql-runner';

describe('migrations', () => {
  it('apply in order once and record their checksums (PGlite)', async () => {
    const pglite = await createPgliteInstance();
    const runner = pgliteRunner(pglite);
    const applied = await deployMigrations(runner);
    expect(applied).toEqual(listMigrations().map((m) => m.name));
    expect(await deployMigrations(runner)).toEqual([]);
    await pglite.close();
  });

  it('refuse a migration edited after it was applied', async () => {
    const pglite = await createPgliteInstance();
    const runner = pgliteRunner(pglite);
    const migrations = listMigrations();
    await deployMigrations(runner, migrations);
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, checksum: 'changed' } : m));
    await expect(deployMigrations(runner, edited)).rejects.toThrow('edited');
    await pglite.close();
  });

  it.runIf(process.env.DATABASE_URL)('apply once when several instances deploy at the same time (PostgreSQL)', async () => {
    const { connectionString } = parsePostgresUrl(process.env.DATABASE_URL!);
    const schema = `mig_${randomBytes(4).toString('hex')}`;
    const pools = Array.from(
      { length: 4 },
      () => new pg.Pool({ connectionString, max: 2, options: `-c search_path="${schema}"` }),
    );
    await pools[0]!.query(`CREATE SCHEMA "${schema}"`);
    try {
      const results = await Promise.all(pools.map((pool) => deployMigrations(poolRunner(pool))));
      const all = results.flat();
      expect(all.sort()).toEqual(
        listMigrations()
          .map((m) => m.name)
          .sort(),
      );
      const rows = await pools[0]!.query('SELECT count(*)::int AS n FROM _migrations');
      expect(rows.rows[0].n).toBe(listMigrations().length);
    } finally {
      await pools[0]!.query(`DROP SCHEMA "${schema}" CASCADE`);
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { isReadOnlySql, parseLsn, routedSql, type Replica } from './replica';
import type { SqlRunner } from './sql-runner';

describe('read replica routing of raw SQL', () => {
  it('sends only plain SELECTs to the replica', () => {
    expect(isReadOnlySql('SELECT id, updated_at FROM agents WHERE deleted_at IS NULL')).toBe(true);
    expect(isReadOnlySql('  select count(*) from jobs')).toBe(true);
    expect(isReadOnlySql('WITH moved AS (DELETE FROM a RETURNING *) SELECT * FROM moved')).toBe(false);
    expect(isReadOnlySql('INSERT INTO a VALUES (1)')).toBe(false);
    expect(isReadOnlySql('SELECT * FROM balances WHERE wallet = $1 FOR UPDATE')).toBe(false);
    expect(isReadOnlySql('SELECT * FROM balances FOR NO KEY UPDATE')).toBe(false);
    expect(isReadOnlySql('SELECT pg_advisory_xact_lock(1)')).toBe(false);
    expect(isReadOnlySql("SELECT pg_notify('c', 'x')")).toBe(false);
    expect(isReadOnlySql("SELECT nextval('s')")).toBe(false);
    expect(isReadOnlySql('SELECT * INTO copy FROM a')).toBe(false);
  });

  it('orders WAL positions as numbers', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });
});

describe('a read refused on the replica', () => {
  const runner = (query: (sql: string) => unknown): SqlRunner =>
    ({ query: async (sql: string) => query(sql), exec: async () => {}, withConnection: async () => {} }) as unknown as SqlRunner;
  const refusing = (code: string) => {
    const failed: unknown[] = [];
    const replica = {
      sql: runner(() => {
        throw Object.assign(new Error('refused'), { code });
      }),
      status: () => ({ usable: true, lagMs: 0, detail: '' }),
      markFailed: (error: unknown) => failed.push(error),
    } as unknown as Replica;
    return {
      failed,
      routed: routedSql(
        runner(() => [{ from: 'primary' }]),
        replica,
      ),
    };
  };

  it('for its input (a malformed uuid) fails as the primary would, and keeps the replica in use', async () => {
    const { failed, routed } = refusing('22P02');
    await expect(routed.query('SELECT 1 WHERE $1::uuid IS NULL', ['-'])).rejects.toThrow('refused');
    expect(failed).toEqual([]);
  });

  it('for a broken connection or a column it has not replayed yet is answered by the primary, and the replica is set aside', async () => {
    for (const code of ['57P01', '42703']) {
      const { failed, routed } = refusing(code);
      expect(await routed.query('SELECT 1')).toEqual([{ from: 'primary' }]);
      expect(failed).toHaveLength(1);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { isReadOnlySql, parseLsn } from './replica';

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

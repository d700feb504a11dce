/**
 * lib/db/client.ts makes every SQLite transaction `BEGIN IMMEDIATE`: the worker's claim reads due
 * schedules and then writes them, so its transaction must hold the write lock from its first
 * statement (a deferred `BEGIN` would let another process write in between and fail the upgrade).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDialect, type TestDb } from '../../testing/test-db';

describe.skipIf(testDialect() !== 'sqlite')('SQLite transactions', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.cleanup());

  it('hold the write lock from BEGIN, before their first statement writes', async () => {
    // A second connection that never waits (timeout 0): it must not block this process's event loop.
    const other = new Database(t.url.replace(/^file:/, ''), { timeout: 0 });
    try {
      await t.db.$transaction(async (tx) => {
        await tx.$queryRawUnsafe('SELECT 1'); // a read only: a deferred BEGIN would hold no write lock yet
        expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
      });
      // After commit the lock is free again.
      other.exec('BEGIN IMMEDIATE');
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
  });
});

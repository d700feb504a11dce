/**
 * Inside `inTransaction`, lib/db/sql's statements run on the transaction's own driver connection
 * (`sqliteConnection` / `postgresConnection`, docs/decisions.md 126), which the product's adapters
 * make known without reading adapter internals (lib/db/sqlite-adapter.ts owns the SQLite connection;
 * lib/db/postgres-adapter.ts notes the pool connection `@prisma/adapter-pg` takes for a transaction).
 * If an upgrade changes how the PostgreSQL adapter takes that connection, the product falls back to
 * Prisma's raw queries (correct, slower) and this test fails, saying so.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { inTransaction, postgresConnection, sqliteConnection, type Tx } from '../client';
import { dialectOfDb } from '..';
import { queryRows } from '../sql/run-sql';

const LOST =
  'inTransaction did not learn the transaction\'s driver connection: @prisma/adapter-pg no longer takes it with pool.connect() during startTransaction (lib/db/postgres-adapter.ts); the fire path now runs on Prisma\'s raw queries, slower';

describe('the transaction inTransaction hands out', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.cleanup());

  /** The names of org `id` read on the transaction's driver connection; null when that connection is not known. */
  async function direct(tx: Tx, id: string): Promise<string[] | null> {
    if (t.dialect === 'sqlite') return sqliteConnection(tx)?.all('SELECT name FROM orgs WHERE id = ?', id).map((r) => String(r.name)) ?? null;
    const c = postgresConnection(tx);
    return c && (await c.query('SELECT name FROM orgs WHERE id = $1', [id])).rows.map((r) => String(r.name));
  }

  it('runs lib/db/sql on its own connection: it sees the transaction\'s uncommitted rows, and their rollback', async () => {
    const id = randomUUID();
    const rollback = new Error('roll back');
    const seen: { names?: string[] | null; outside?: number; pids?: unknown[] } = {};
    await expect(
      inTransaction(t.db, async (tx) => {
        await tx.org.create({ data: { id, name: 'uncommitted' } });
        seen.names = await direct(tx, id);
        if (t.dialect === 'postgresql') {
          // (On SQLite the process has one connection: its base client reads inside the open transaction.)
          seen.outside = await t.db.org.count({ where: { id } });
          // The same server session as the transaction's Prisma queries.
          const [{ pid }] = await tx.$queryRawUnsafe<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
          seen.pids = [pid, (await postgresConnection(tx)?.query('SELECT pg_backend_pid() AS pid', []))?.rows[0].pid];
        }
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(seen.names, t.dialect === 'sqlite' ? 'sqliteConnection(tx) inside inTransaction' : LOST).toEqual(['uncommitted']);
    if (t.dialect === 'postgresql') {
      expect(seen.outside, 'not visible outside the transaction').toBe(0);
      expect(seen.pids?.[1], LOST).toBe(seen.pids?.[0]);
    }
    expect(await t.db.org.count({ where: { id } })).toBe(0);
  });

  it('is the only client the direct path serves: not the base client, not another transaction', async () => {
    expect(sqliteConnection(t.db)).toBeNull();
    expect(postgresConnection(t.db)).toBeNull();
    await t.db.$transaction(async (tx) => {
      // A transaction not opened by inTransaction runs lib/db/sql through Prisma's raw queries.
      expect(sqliteConnection(tx)).toBeNull();
      expect(postgresConnection(tx)).toBeNull();
      expect(dialectOfDb(tx)).toBe(t.dialect);
      expect(await queryRows(tx, { sqlite: 'SELECT 1 AS one', postgresql: 'SELECT 1 AS one' })).toHaveLength(1);
    });
    await inTransaction(t.db, async (tx) => {
      expect(dialectOfDb(tx)).toBe(t.dialect);
      expect(sqliteConnection(tx) !== null || postgresConnection(tx) !== null, LOST).toBe(true);
      // Outside the callback's transaction client, nothing: the base client inside the callback included.
      expect(sqliteConnection(t.db)).toBeNull();
      expect(postgresConnection(t.db)).toBeNull();
    });
  });
});

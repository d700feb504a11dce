/**
 * A transaction whose connection is cut (a PostgreSQL restart or failover, the network) gives its pool
 * connection back (lib/db/postgres-adapter.ts `PostgresTransaction`). Prisma sends COMMIT / ROLLBACK as
 * statements and releases the connection only after they succeed: before the fix, each cut kept one
 * connection taken for good, and after DATABASE_POOL_SIZE cuts every transaction waited forever.
 *
 * Real PostgreSQL behind a TCP proxy on loopback (lib/testing/cutting-proxy.ts); a pool of 2; three
 * cuts of each kind (more than the pool holds), then transactions and plain reads must still answer
 * within seconds, and the cut transactions must have saved nothing. PostgreSQL only.
 */
import { describe, expect, it } from 'vitest';
import { databaseFaultOf } from '../../errors';
import { useProxiedDb, within } from '../../testing/proxied-db';
import { testDialect } from '../../testing/test-db';
import { inTransaction, type Db } from '..';
import { PostgresAdapterFactory } from '../postgres-adapter';

const POOL = 2;

describe.skipIf(testDialect() !== 'postgresql')('a transaction whose connection is cut', () => {
  const env = useProxiedDb({ poolSize: POOL });

  /** One transaction writing org `id`, cut when the client sends `marker`; returns what it threw. */
  async function cutTransaction(id: string, marker: string, extra?: (db: Db) => Promise<unknown>): Promise<unknown> {
    const cut = env.proxy.cutWhenClientSends(marker);
    let thrown: unknown = null;
    try {
      await within(
        10_000,
        inTransaction(env.db, async (tx) => {
          await tx.org.create({ data: { id, alias: id, name: id } });
          if (extra) await extra(tx as unknown as Db);
        }),
        `transaction ${id}`,
      );
    } catch (e) {
      thrown = e;
    }
    await within(10_000, cut, `cut of ${id}`);
    return thrown;
  }

  it('at its COMMIT: it throws database_connection_lost, saves nothing, and the pool stays whole', async () => {
    for (let i = 0; i < POOL + 1; i++) {
      const thrown = await cutTransaction(`cut-commit-${i}`, 'COMMIT');
      expect(thrown, `cut ${i}`).not.toBeNull();
      expect(databaseFaultOf(thrown)).toBe('database_connection_lost');
    }
    for (let i = 0; i < POOL + 1; i++) {
      await within(10_000, inTransaction(env.db, (tx) => tx.org.create({ data: { id: `after-commit-cut-${i}`, alias: `after-commit-cut-${i}`, name: 'x' } })), `transaction after the cuts (${i})`);
      await within(10_000, env.db.org.count(), `read after the cuts (${i})`);
    }
    expect(await env.t.db.org.count({ where: { id: { startsWith: 'cut-commit-' } } })).toBe(0);
    expect(await env.t.db.org.count({ where: { id: { startsWith: 'after-commit-cut-' } } })).toBe(POOL + 1);
  });

  it('mid-transaction (its ROLLBACK then fails too): it throws, saves nothing, and the pool stays whole', async () => {
    for (let i = 0; i < POOL + 1; i++) {
      const thrown = await cutTransaction(`cut-midway-${i}`, 'cut-here-midway', (tx) => tx.$queryRawUnsafe(`SELECT 'cut-here-midway'`));
      expect(databaseFaultOf(thrown), `cut ${i}`).toBe('database_connection_lost');
    }
    for (let i = 0; i < POOL + 1; i++) {
      await within(10_000, inTransaction(env.db, (tx) => tx.org.count()), `transaction after the cuts (${i})`);
    }
    expect(await env.t.db.org.count({ where: { id: { startsWith: 'cut-midway-' } } })).toBe(0);
  });

  it('a connection PostgreSQL ends while it is handed out (between statements) is no uncaught exception; its next query fails as a lost connection', async () => {
    const factory = new PostgresAdapterFactory({ connectionString: env.t.url, max: 2 }, () => undefined);
    const adapter = await factory.connect();
    try {
      const conn = await factory.pool!.connect();
      const pid = Number((await conn.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      // Before ignoreConnectionError, the 57P01 'error' event this makes had no listener: an
      // uncaught exception, which fails this run (and would have ended a worker).
      await env.t.db.$queryRawUnsafe(`SELECT pg_terminate_backend(${pid})`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const thrown = await conn.query('SELECT 1').then(() => null, (e: unknown) => e);
      expect(databaseFaultOf(thrown)).toBe('database_connection_lost');
      conn.release(true);
      expect(await within(10_000, inTransaction(env.db, (tx) => tx.org.count()), 'a transaction afterwards')).toBeGreaterThanOrEqual(0);
    } finally {
      await adapter.dispose();
    }
  });
});

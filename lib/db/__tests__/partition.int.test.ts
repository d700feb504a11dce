/**
 * A database that stops answering without closing the connection (a network partition, a failover to
 * another address, a firewall or NAT that forgot the connection) bounds every wait (lib/db
 * `PostgresTimeouts`, docs/decisions.md 432). Before the bounds, a statement sent into the silence
 * waited for ever, and so did every request and the worker's loop behind it.
 *
 * Real PostgreSQL behind a TCP proxy on loopback (lib/testing/cutting-proxy.ts `partition()`: the
 * server's side of every connection closed, the client's left open and silent); a pool of 2, a
 * statement timeout of 2 s and a connect timeout of 1 s. PostgreSQL only.
 */
import { describe, expect, it } from 'vitest';
import { databaseFaultOf } from '../../errors';
import { useProxiedDb } from '../../testing/proxied-db';
import { testDialect } from '../../testing/test-db';
import { inTransaction } from '..';
import { queryRows } from '../sql/run-sql';

const POOL = 2;
const QUERY_MS = 2_000;
const CONNECT_MS = 1_000;

/** What `p` threw (null if it resolved) and how long it took, in ms; a rejection after `ms` names a wait that never ended. */
async function timed(p: Promise<unknown>, ms = 20_000): Promise<{ thrown: unknown; ms: number }> {
  const began = Date.now();
  let thrown: unknown = null;
  try {
    await Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))]);
  } catch (e) {
    thrown = e;
  }
  return { thrown, ms: Date.now() - began };
}

describe.skipIf(testDialect() !== 'postgresql')('a database partitioned away', () => {
  const env = useProxiedDb({ poolSize: POOL, queryTimeoutMs: QUERY_MS, connectTimeoutMs: CONNECT_MS });

  it('fails each wait within its bound, drops a silent transaction at once, and works again once healed', async () => {
    const { db, proxy } = env;
    // Both pool connections open and idle before the partition.
    await Promise.all([db.org.count(), inTransaction(db, (tx) => tx.org.count())]);

    // A transaction whose Prisma statement is sent into the silence.
    const prismaTx = timed(
      inTransaction(db, async (tx) => {
        await tx.org.create({ data: { id: 'p-1', alias: 'p-1', name: 'p-1' } });
        proxy.partition();
        await tx.org.create({ data: { id: 'p-2', alias: 'p-2', name: 'p-2' } });
      }),
    );
    const a = await prismaTx;
    expect(databaseFaultOf(a.thrown), String(a.thrown)).toBe('database_connection_lost');
    expect(a.ms).toBeGreaterThanOrEqual(QUERY_MS - 50);
    // Dropped at once: its ROLLBACK did not wait a second QUERY_MS behind the unanswered statement.
    expect(a.ms).toBeLessThan(2 * QUERY_MS - 200);

    // A plain read: the pool's other connection is silent too, so the read waits QUERY_MS for its answer.
    const b = await timed(db.org.count());
    expect(databaseFaultOf(b.thrown), String(b.thrown)).toBe('database_connection_lost');
    expect(b.ms).toBeGreaterThanOrEqual(QUERY_MS - 50);

    // Both dropped: a new connection cannot be had while partitioned, within CONNECT_MS.
    const c = await timed(db.org.count());
    expect(databaseFaultOf(c.thrown), String(c.thrown)).toBe('database_unavailable');
    expect(c.ms).toBeLessThan(QUERY_MS);

    proxy.heal();
    // The fire path's own statements run on the transaction's connection directly (run-sql.ts).
    await expect(inTransaction(db, async (tx) => queryRows<{ one: number }>(tx, { sqlite: 'SELECT 1 AS one', postgresql: 'SELECT 1 AS one' }))).resolves.toEqual([{ one: 1 }]);
    const direct = timed(
      inTransaction(db, async (tx) => {
        await tx.org.create({ data: { id: 'p-3', alias: 'p-3', name: 'p-3' } });
        proxy.partition();
        await queryRows(tx, { sqlite: 'SELECT 1', postgresql: 'SELECT 1' });
      }),
    );
    const d = await direct;
    expect(databaseFaultOf(d.thrown), String(d.thrown)).toBe('database_connection_lost');
    expect(d.ms).toBeLessThan(2 * QUERY_MS - 200);

    proxy.heal();
    // More transactions than the pool holds, one after another: no connection was kept taken.
    for (let i = 0; i < POOL + 2; i++) {
      const ok = await timed(inTransaction(db, (tx) => tx.org.count()), 10_000);
      expect(ok.thrown, `transaction ${i} after healing`).toBeNull();
    }
    // Nothing of the dropped transactions was saved: PostgreSQL rolled them back.
    expect(await db.org.count({ where: { id: { in: ['p-1', 'p-2', 'p-3'] } } })).toBe(0);
  }, 60_000);
});

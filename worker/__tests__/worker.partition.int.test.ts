/**
 * SPEC §8 when the database goes silent under a firing worker (a network partition, a failover to
 * another address, a firewall or NAT that forgot the connection: no error, no close, only silence). A
 * real worker process (`worker/main.ts`, a pool of 2 connections, DATABASE_QUERY_TIMEOUT_MS=2000,
 * DATABASE_CONNECT_TIMEOUT_MS=1000) reaches real PostgreSQL through a TCP proxy on loopback
 * (lib/testing/cutting-proxy.ts `partition()`); while it drains a backlog of 300 due schedules in
 * batches of 20 the test partitions it away for 4 s, then heals. Before the waits were bounded
 * (docs/decisions.md 432), the worker waited for ever for the answer to a statement sent into the
 * silence and never fired again. Now it resumes by itself, and every occurrence has exactly one run
 * and one execution. PostgreSQL only.
 */
import { expect, it } from 'vitest';
import { backlogWorkerBehindProxy, expectDrainedOnceAndStopped } from '../../lib/testing/proxied-db';
import { testDialect } from '../../lib/testing/test-db';
import { sleep, useTestDatabase } from '../../lib/testing/worker-process';

const SCHEDULES = 300;
const t = useTestDatabase();

it.skipIf(testDialect() !== 'postgresql')('§8 a worker partitioned from its database for 4 s resumes firing once healed; every occurrence exactly once', async () => {
  const db = t.db;
  const { ids, proxy, worker, log } = await backlogWorkerBehindProxy(t, {
    count: SCHEDULES,
    label: 'partition',
    env: { DATABASE_QUERY_TIMEOUT_MS: '2000', DATABASE_CONNECT_TIMEOUT_MS: '1000' },
  });
  try {
    const due = new Date(Date.now() - 1_000);
    const left = () => db.schedule.count({ where: { id: { in: ids }, nextFireAt: due } });
    await db.schedule.updateMany({ where: { id: { in: ids } }, data: { nextFireAt: due } });
    // Partitioned mid-drain: after the first batches, with more to fire.
    const firstBy = Date.now() + 20_000;
    while ((await left()) === SCHEDULES && Date.now() < firstBy) await sleep(20);
    const before = await left();
    expect(before, 'the worker fired nothing before the partition').toBeLessThan(SCHEDULES);
    expect(before, 'the worker drained everything before the partition: nothing was left to test').toBeGreaterThan(0);
    proxy.partition();
    await sleep(4_000);
    proxy.heal();

    await expectDrainedOnceAndStopped(db, { ids, worker, log }, due, 'the partition healed');
  } finally {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await proxy.stop();
  }
}, 180_000);
